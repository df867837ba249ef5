import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext } from '@playwright/test';

const SHIM = readFileSync(new URL('./gapi-shim.js', import.meta.url), 'utf8');

/**
 * A browser context for the Google popup flow. These machines have no internet, so:
 * - Google's gapi loader (https://apis.google.com/js/api.js), which the Firebase SDK and the
 *   emulator's helper iframe load even in emulator mode, is answered by gapi-shim.js;
 * - the emulator's sign-in page's CDN stylesheets and fonts are refused (it works without them);
 * - the gateway's CSP does not list apis.google.com in emulator mode, so this context bypasses CSP.
 * The Firebase SDK, the emulator's pages and the popup window are the real ones.
 */
export async function googleContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    bypassCSP: true,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'block',
  });
  await context.route(/^https:\/\/apis\.google\.com\/js\/api\.js/, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: SHIM }),
  );
  await context.route(/^https:\/\/(unpkg\.com|fonts\.googleapis\.com|fonts\.gstatic\.com)\//, (route) => route.abort());
  return context;
}
