import { i18next } from '../../lib/i18n';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
import { showToast } from '../../app/shell/notices';
import { authActionFinished, authActionStarted, authStateChanged } from '../../lib/session';
import { DEBUG_REDIRECT_MS, describeAuthError, stripProviderPrefix } from './authErrors';
import { loadFirebase, toAuthUser } from './bootstrap';
import { disablePush } from '../../lib/push';

export interface AuthActions {
  signInWithEmail(email: string, password: string): Promise<void>;
  signUpWithEmail(email: string, password: string, displayName?: string): Promise<void>;
  signInWithGoogle(): Promise<void>;
  resetPassword(email: string): Promise<void>;
  logout(): Promise<void>;
}

/**
 * Sign-in, sign-up, reset and logout with the Firebase SDK. Every failure is logged, shown as a
 * destructive toast and rethrown (docs/spec.md, section 8), so a form can stay as it is.
 */
export function useAuthActions(): AuthActions {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  const run = useCallback(
    async (label: string, action: () => Promise<void>) => {
      dispatch(authActionStarted());
      try {
        await loadFirebase(dispatch);
        await action();
      } catch (err) {
        console.error(`${label} failed`, err);
        const notice = describeAuthError(err);
        dispatch(showToast({ title: notice.title, description: notice.description, variant: 'destructive' }));
        if (notice.redirectToDebug) {
          setTimeout(() => navigate('/firebase-debug'), DEBUG_REDIRECT_MS);
        }
        throw err;
      } finally {
        dispatch(authActionFinished());
      }
    },
    [dispatch, navigate],
  );

  return useMemo<AuthActions>(
    () => ({
      signInWithEmail: (email, password) =>
        run('sign in', async () => {
          const [{ firebaseAuth }, { signInWithEmailAndPassword }] = await Promise.all([
            import('./firebase'),
            import('firebase/auth'),
          ]);
          await signInWithEmailAndPassword(firebaseAuth(), email.trim(), password);
        }),

      signUpWithEmail: (email, password, displayName) =>
        run('sign up', async () => {
          const [{ firebaseAuth }, { createUserWithEmailAndPassword, updateProfile }] = await Promise.all([
            import('./firebase'),
            import('firebase/auth'),
          ]);
          const auth = firebaseAuth();
          const credential = await createUserWithEmailAndPassword(auth, email.trim(), password);
          const name = displayName?.trim();
          if (name) {
            await updateProfile(credential.user, { displayName: name });
            // The ID token minted at sign-up has no name claim: refresh it, so the services show
            // this name (not the email's first part) to family members from the first request.
            await credential.user.getIdToken(true);
            // A profile change fires no auth-state event: publish the new name ourselves.
            dispatch(authStateChanged(toAuthUser(credential.user)));
          }
        }),

      signInWithGoogle: () =>
        run('Google sign in', async () => {
          const [{ firebaseAuth }, { GoogleAuthProvider, signInWithPopup, browserPopupRedirectResolver }] =
            await Promise.all([import('./firebase'), import('firebase/auth')]);
          const provider = new GoogleAuthProvider();
          provider.addScope('profile');
          await signInWithPopup(firebaseAuth(), provider, browserPopupRedirectResolver);
        }),

      resetPassword: (email) =>
        run('password reset', async () => {
          const [{ firebaseAuth }, { sendPasswordResetEmail }] = await Promise.all([
            import('./firebase'),
            import('firebase/auth'),
          ]);
          await sendPasswordResetEmail(firebaseAuth(), email.trim());
          dispatch(
            showToast({
              title: i18next.t('errors.resetSent', { ns: 'auth' }),
              description: i18next.t('errors.resetSentText', { ns: 'auth' }),
            }),
          );
        }),

      logout: async () => {
        dispatch(authActionStarted());
        try {
          await loadFirebase(dispatch);
          // While still signed in: this device stops being pushed the user's notices.
          await disablePush().catch(() => undefined);
          const [{ firebaseAuth }, { signOut }] = await Promise.all([import('./firebase'), import('firebase/auth')]);
          await signOut(firebaseAuth());
        } catch (err) {
          console.error('logout failed', err);
          const message = err instanceof Error && err.message ? stripProviderPrefix(err.message) : i18next.t('errors.logoutFailed', { ns: 'auth' });
          dispatch(showToast({ title: i18next.t('errors.logoutTitle', { ns: 'auth' }), description: message, variant: 'destructive' }));
        } finally {
          dispatch(authActionFinished());
        }
      },
    }),
    [run, dispatch],
  );
}
