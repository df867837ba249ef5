/** Registers public/sw.js in production builds (the dev server serves modules it must not cache). */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js').catch((err: unknown) => {
    console.warn('service worker registration failed', err);
  });
}
