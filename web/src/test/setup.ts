import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { renderInEnglish } from './i18n';

// findBy/waitFor give up after 1 s by default; on the shared 2-core CI machine a busy moment is
// longer than that. The assertions are the same, they only wait longer.
configure({ asyncUtilTimeout: 5000 });

// Every test renders in English (the catalogs' source language) unless it switches with inLanguage().
await renderInEnglish();

afterEach(async () => {
  cleanup();
  await renderInEnglish();
  localStorage.clear();
  sessionStorage.clear();
});

/**
 * The app calls its gateway with relative URLs ('/api/wishlist'), which a browser resolves
 * against the page. Node's Request does not, and it rejects jsdom's AbortSignal: this subclass
 * makes the test environment behave like the browser for both.
 */
const NodeRequest = globalThis.Request;
class BrowserLikeRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    const url = typeof input === 'string' ? new URL(input, window.location.href).href : input;
    const { signal: _signal, ...rest } = init ?? {};
    void _signal;
    super(url, rest);
  }
}
globalThis.Request = BrowserLikeRequest as typeof Request;
