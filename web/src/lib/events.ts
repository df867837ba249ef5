/**
 * Page-wide events (SPEC section 3). Any part of the app, including code that is not
 * React (the photo flow, the live-update stream), can talk to the shell through these.
 */
export const PAGE_EVENTS = {
  showToast: 'show-toast',
  showSantaAnimation: 'show-santa-animation',
  updateWishlistCount: 'update-wishlist-count',
  backgroundThemeLoaded: 'background-theme-loaded',
} as const;

export type PageEventName = (typeof PAGE_EVENTS)[keyof typeof PAGE_EVENTS];

export function emitShowToast(message: string): void {
  window.dispatchEvent(new CustomEvent(PAGE_EVENTS.showToast, { detail: message }));
}

export function emitShowSantaAnimation(): void {
  window.dispatchEvent(new CustomEvent(PAGE_EVENTS.showSantaAnimation));
}

export function emitUpdateWishlistCount(count: number): void {
  window.dispatchEvent(new CustomEvent(PAGE_EVENTS.updateWishlistCount, { detail: count }));
}

export function emitBackgroundThemeLoaded(url: string): void {
  window.dispatchEvent(new CustomEvent(PAGE_EVENTS.backgroundThemeLoaded, { detail: { url } }));
}

/** Subscribes to a page event; returns the unsubscribe function. */
export function onPageEvent<T = unknown>(name: PageEventName, handler: (detail: T) => void): () => void {
  const listener = (event: Event) => handler((event as CustomEvent<T>).detail);
  window.addEventListener(name, listener);
  return () => window.removeEventListener(name, listener);
}
