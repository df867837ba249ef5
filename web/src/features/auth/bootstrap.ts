import type { User } from 'firebase/auth';
import type { AppDispatch } from '../../app/store';
import { api } from '../../app/api';
import { apiRoute } from '../../lib/api/paths';
import { setTokenProvider } from '../../lib/authToken';
import { safeGet, safeRemove, safeSet } from '../../lib/storage';
import { authStateChanged, authUnavailable, type AuthUser } from '../../lib/session';
import type { PublicConfig } from './firebase';

/**
 * Set while someone is signed in on this device. Without it the Firebase SDK (about a quarter of
 * the app's JavaScript) is not downloaded at start: a first-time visitor gets a lighter page and
 * the SDK arrives when they open the login screen.
 */
export const SESSION_HINT_KEY = 'santa:signedIn';

export function toAuthUser(user: User): AuthUser {
  return {
    uid: user.uid,
    email: user.email,
    displayName: user.displayName,
    photoURL: user.photoURL,
    providerIds: user.providerData.map((p) => p.providerId),
  };
}

/**
 * Checked at run time, unlike the API's other answers: it is the first thing read, with plain
 * fetch, and what answers there may not be the gateway (one still starting, a proxy's page), while
 * the SDK cannot start without the Firebase API key.
 */
function isPublicConfig(value: unknown): value is PublicConfig {
  if (!value || typeof value !== 'object') return false;
  const firebase = (value as { firebase?: unknown }).firebase;
  return !!firebase && typeof firebase === 'object' && typeof (firebase as { apiKey?: unknown }).apiKey === 'string';
}

async function loadConfig(): Promise<PublicConfig> {
  let lastError: unknown;
  // The gateway may still be starting when an installed app opens: retry a few times.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const { url, method } = apiRoute('GET', '/api/config');
      const res = await fetch(url, { method, headers: { Accept: 'application/json' } });
      if (!res.ok) throw new Error(`GET /api/config answered ${res.status}`);
      const body: unknown = await res.json();
      if (!isPublicConfig(body)) throw new Error('GET /api/config answered without a firebase config');
      return body;
    } catch (err) {
      lastError = err;
      if (attempt < 2) await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
    }
  }
  throw lastError;
}

let starting: Promise<void> | null = null;

/**
 * Fetches the public Firebase config, starts the SDK and keeps the store's auth state in step
 * with it (once; later calls share the first). Resets cached API data whenever the signed-in
 * account changes, so one person never sees another's wishlist.
 */
export function loadFirebase(dispatch: AppDispatch): Promise<void> {
  if (!starting) {
    starting = (async () => {
      try {
        const [config, firebase] = await Promise.all([loadConfig(), import('./firebase')]);
        setTokenProvider(firebase.currentIdToken);
        let previousUid: string | null | undefined;
        firebase.startFirebase(config, (user) => {
          const uid = user?.uid ?? null;
          if (previousUid !== undefined && previousUid !== uid) dispatch(api.util.resetApiState());
          previousUid = uid;
          if (user) safeSet(localStorage, SESSION_HINT_KEY, '1');
          else safeRemove(localStorage, SESSION_HINT_KEY);
          dispatch(authStateChanged(user ? toAuthUser(user) : null));
        });
      } catch (err) {
        console.error('sign-in is unavailable', err);
        starting = null; // a later visit to the login screen tries again
        dispatch(authUnavailable(err instanceof Error ? err.message : String(err)));
      }
    })();
  }
  return starting;
}

/** At app start: the SDK only if someone was signed in here; otherwise 'signed out' at once. */
export function startAuth(dispatch: AppDispatch): Promise<void> {
  if (safeGet(localStorage, SESSION_HINT_KEY)) return loadFirebase(dispatch);
  dispatch(authStateChanged(null));
  return Promise.resolve();
}
