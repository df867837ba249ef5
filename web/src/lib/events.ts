/**
 * The page-wide events of docs/spec.md, section 3. The app's own code never sends them (it
 * dispatches the shell's Redux actions); the shell only listens, so a page script or a test can
 * still reach it.
 */
export const PAGE_EVENTS = {
  showToast: 'show-toast',
  showSantaAnimation: 'show-santa-animation',
  updateWishlistCount: 'update-wishlist-count',
  backgroundThemeLoaded: 'background-theme-loaded',
} as const;

export type PageEventName = (typeof PAGE_EVENTS)[keyof typeof PAGE_EVENTS];

/** Subscribes to a page event; returns the unsubscribe function. */
export function onPageEvent<T = unknown>(name: PageEventName, handler: (detail: T) => void): () => void {
  const listener = (event: Event) => handler((event as CustomEvent<T>).detail);
  window.addEventListener(name, listener);
  return () => window.removeEventListener(name, listener);
}
