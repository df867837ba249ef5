/**
 * The Firebase SDK lives behind this module, which the app imports lazily: the first screen
 * paints before the SDK has been downloaded. Only firebase/app and firebase/auth are used.
 */
import { initializeApp } from 'firebase/app';
import {
  browserLocalPersistence,
  connectAuthEmulator,
  indexedDBLocalPersistence,
  initializeAuth,
  onAuthStateChanged,
  type Auth,
  type User,
} from 'firebase/auth';
import type { ResponseBody } from '../../lib/api/operations';

/**
 * GET /api/config: the Firebase web config (apiKey, authDomain, projectId) and, in development
 * and tests only, the auth emulator's address (e.g. http://127.0.0.1:9099).
 */
export type PublicConfig = ResponseBody<'getWebConfig', 200>;

let auth: Auth | null = null;

export function startFirebase(config: PublicConfig, onUser: (user: User | null) => void): Auth {
  if (auth) return auth;
  const app = initializeApp(config.firebase);
  // initializeAuth (not getAuth) so the popup/redirect machinery is downloaded only by the
  // login screen, which passes browserPopupRedirectResolver to signInWithPopup itself.
  auth = initializeAuth(app, { persistence: [indexedDBLocalPersistence, browserLocalPersistence] });
  if (config.authEmulatorUrl) {
    connectAuthEmulator(auth, config.authEmulatorUrl, { disableWarnings: true });
  }
  onAuthStateChanged(auth, onUser);
  return auth;
}

export function firebaseAuth(): Auth {
  if (!auth) throw new Error('Sign-in is not available yet. Please try again in a moment.');
  return auth;
}

export async function currentIdToken(): Promise<string | null> {
  return auth?.currentUser ? auth.currentUser.getIdToken() : null;
}
