/** Browser storage keys used across features (docs/spec.md, section 3: "Browser storage keys"). */
export const STORAGE_KEYS = {
  currentBackgroundTheme: 'currentBackgroundTheme',
  cameraMode: 'cameraMode',
  capturedImage: 'capturedImage',
  editedImage: 'editedImage',
  geminiItemName: 'geminiItemName',
  geminiItemDescription: 'geminiItemDescription',
  geminiItemPrice: 'geminiItemPrice',
  scannedItem: 'scannedItem',
  scanResult: 'scanResult',
} as const;

export const SESSION_KEYS = {
  redirectAfterLogin: 'redirectAfterLogin',
} as const;

/** Storage can throw (private mode, quota, disabled cookies); the app must keep working without it. */
export function safeGet(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

export function safeSet(storage: Storage, key: string, value: string): void {
  try {
    storage.setItem(key, value);
  } catch (err) {
    console.warn(`could not store ${key}`, err);
  }
}

export function safeRemove(storage: Storage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    /* nothing stored, nothing to remove */
  }
}
