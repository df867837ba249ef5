import { SESSION_KEYS, safeGet, safeRemove, safeSet } from './storage';

export function rememberRedirectAfterLogin(path: string): void {
  safeSet(sessionStorage, SESSION_KEYS.redirectAfterLogin, path);
}

/** The stored path (then forgotten), if it is a path inside this app; otherwise '/'. */
export function takeRedirectAfterLogin(): string {
  const stored = safeGet(sessionStorage, SESSION_KEYS.redirectAfterLogin);
  safeRemove(sessionStorage, SESSION_KEYS.redirectAfterLogin);
  // Only same-app paths: never an absolute or protocol-relative URL (open redirect).
  if (stored && stored.startsWith('/') && !stored.startsWith('//') && !stored.startsWith('/\\')) {
    return stored;
  }
  return '/';
}
