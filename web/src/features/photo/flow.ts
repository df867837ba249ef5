import { STORAGE_KEYS, safeGet, safeRemove, safeSet } from '../../lib/storage';

/**
 * What the photo flow keeps in local storage between its screens (docs/spec.md, section 3 'Browser
 * storage keys'): camera → recognition overlay → sticker editor → gift options → share /
 * confirmation. Every screen reads what it needs from here, so a reload or a shared tab resumes
 * where it was.
 */

export type CameraSide = 'front' | 'back';

export interface ScanResult {
  type: 'barcode';
  value: string;
  /** ISO 8601. */
  timestamp: string;
}

export interface ScannedItem {
  name: string;
  barcode?: string;
}

/** The gift as the gift options, share and confirmation screens show it. */
export interface GiftDetails {
  name: string;
  description: string;
  price: string;
  /** True only when the details came from the AI, not from the defaults. */
  aiEnhanced: boolean;
}

/** Where the stored gift details came from; not a spec key, it decides the 'AI Enhanced' badge. */
export const GIFT_SOURCE_KEY = 'geminiItemSource';

/** Stored when the AI could not describe the edited photo (docs/spec.md, section 4 'Editor'). */
export const GIFT_FALLBACK = {
  name: 'Wishlist Item',
  description: 'A gift item from your wishlist',
  price: '$0.00',
} as const;

/** Shown when nothing is stored at all (docs/spec.md, section 3 'AI item result' defaults). */
export const GIFT_DEFAULTS = {
  name: 'Wishlist Item',
  description: 'No description available',
  price: '$0.00',
} as const;

export const DEFAULT_SHARE_NAME = 'Toy Racing Car';

const local = (): Storage | null => (typeof localStorage === 'undefined' ? null : localStorage);

function get(key: string): string | null {
  const s = local();
  return s ? safeGet(s, key) : null;
}

function set(key: string, value: string): void {
  const s = local();
  if (s) safeSet(s, key, value);
}

function remove(key: string): void {
  const s = local();
  if (s) safeRemove(s, key);
}

function parse<T>(raw: string | null, valid: (v: unknown) => v is T): T | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return valid(value) ? value : null;
  } catch {
    return null;
  }
}

// --- camera side --------------------------------------------------------------------------

export function readCameraSide(): CameraSide {
  return get(STORAGE_KEYS.cameraMode) === 'front' ? 'front' : 'back';
}

export function storeCameraSide(side: CameraSide): void {
  set(STORAGE_KEYS.cameraMode, side);
}

// --- images -------------------------------------------------------------------------------

function isImageDataUrl(value: string | null): value is string {
  return !!value && /^data:image\/[a-z0-9.+-]+;base64,/i.test(value);
}

export function readCapturedImage(): string | null {
  const value = get(STORAGE_KEYS.capturedImage);
  return isImageDataUrl(value) ? value : null;
}

/**
 * Stores the photo for the editor. A new photo starts a new gift: the previous edit and its AI
 * details no longer describe it.
 */
export function storeCapturedImage(dataUrl: string): void {
  remove(STORAGE_KEYS.editedImage);
  clearGiftDetails();
  set(STORAGE_KEYS.capturedImage, dataUrl);
}

export function readEditedImage(): string | null {
  const value = get(STORAGE_KEYS.editedImage);
  return isImageDataUrl(value) ? value : null;
}

export function storeEditedImage(dataUrl: string): void {
  set(STORAGE_KEYS.editedImage, dataUrl);
}

// --- gift details (the AI's answer in the editor) -----------------------------------------

export function storeGiftDetails(details: { name: string; description: string; price: string }, fromAi: boolean): void {
  set(STORAGE_KEYS.geminiItemName, details.name);
  set(STORAGE_KEYS.geminiItemDescription, details.description);
  set(STORAGE_KEYS.geminiItemPrice, details.price);
  set(GIFT_SOURCE_KEY, fromAi ? 'gemini' : 'fallback');
}

export function clearGiftDetails(): void {
  remove(STORAGE_KEYS.geminiItemName);
  remove(STORAGE_KEYS.geminiItemDescription);
  remove(STORAGE_KEYS.geminiItemPrice);
  remove(GIFT_SOURCE_KEY);
}

/** The stored gift, with the spec's defaults for whatever is missing (docs/spec.md, sections 3 and 4). */
export function readGiftDetails(): GiftDetails {
  const name = get(STORAGE_KEYS.geminiItemName)?.trim();
  const description = get(STORAGE_KEYS.geminiItemDescription)?.trim();
  const price = get(STORAGE_KEYS.geminiItemPrice)?.trim();
  const source = get(GIFT_SOURCE_KEY);
  return {
    name: name || GIFT_DEFAULTS.name,
    description: description || GIFT_DEFAULTS.description,
    price: price || GIFT_DEFAULTS.price,
    // Stored by an older build without a source: AI data is there, so it is AI enhanced.
    aiEnhanced: !!name && source !== 'fallback',
  };
}

export function hasStoredGiftName(): boolean {
  return !!get(STORAGE_KEYS.geminiItemName)?.trim();
}

// --- barcode scans --------------------------------------------------------------------------

function isScanResult(v: unknown): v is ScanResult {
  const r = v as ScanResult;
  return !!r && typeof r === 'object' && r.type === 'barcode' && typeof r.value === 'string' && typeof r.timestamp === 'string';
}

function isScannedItem(v: unknown): v is ScannedItem {
  return !!v && typeof v === 'object' && typeof (v as ScannedItem).name === 'string';
}

/** Keeps a scan; `name` is the product's when a database knew the code. */
export function storeScanResult(value: string, now: Date = new Date(), name?: string): ScanResult {
  const result: ScanResult = { type: 'barcode', value, timestamp: now.toISOString() };
  set(STORAGE_KEYS.scanResult, JSON.stringify(result));
  const item: ScannedItem = { name: name?.trim() || `Scanned item ${value}`, barcode: value };
  set(STORAGE_KEYS.scannedItem, JSON.stringify(item));
  return result;
}

/** A plain photo is not a scanned product: forget the last scan. */
export function clearScan(): void {
  remove(STORAGE_KEYS.scanResult);
  remove(STORAGE_KEYS.scannedItem);
}

export function readScanResult(): ScanResult | null {
  return parse(get(STORAGE_KEYS.scanResult), isScanResult);
}

export function readScannedItem(): ScannedItem | null {
  return parse(get(STORAGE_KEYS.scannedItem), isScannedItem);
}

/**
 * The name the share screen shows: the AI's name, else the scanned item's, else the spec's default
 * (docs/spec.md, section 2 'Share options').
 */
export function shareItemName(): string {
  if (hasStoredGiftName()) return readGiftDetails().name;
  return readScannedItem()?.name?.trim() || DEFAULT_SHARE_NAME;
}
