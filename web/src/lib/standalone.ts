/** True when the app runs installed (home-screen / standalone window), not in a browser tab. */
export function isStandalone(): boolean {
  const nav = navigator as Navigator & { standalone?: boolean };
  return nav.standalone === true || window.matchMedia?.('(display-mode: standalone)').matches === true;
}

/** Marks <html> so CSS can add the safe-area padding an installed app needs. */
export function markStandalone(): void {
  const apply = () => document.documentElement.classList.toggle('standalone', isStandalone());
  apply();
  window.matchMedia?.('(display-mode: standalone)').addEventListener?.('change', apply);
}
