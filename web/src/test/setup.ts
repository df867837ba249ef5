import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
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
