/** How an auth error is shown (SPEC 8 'Authentication'). */
export interface AuthErrorNotice {
  title: string;
  description: string;
  /** auth/unauthorized-domain sends the user to /firebase-debug after 1.5 s. */
  redirectToDebug: boolean;
}

export const DEBUG_REDIRECT_MS = 1500;

const FRIENDLY: Record<string, string> = {
  'auth/invalid-credential': 'The email or password is incorrect.',
  'auth/invalid-login-credentials': 'The email or password is incorrect.',
  'auth/wrong-password': 'The email or password is incorrect.',
  'auth/user-not-found': 'There is no account with this email.',
  'auth/email-already-in-use': 'An account with this email already exists. Try signing in instead.',
  'auth/weak-password': 'Password must be at least 6 characters',
  'auth/invalid-email': 'The email address is not valid.',
  'auth/missing-email': 'Please enter your email address.',
  'auth/missing-password': 'Please enter your password.',
  'auth/too-many-requests': 'Too many attempts. Please wait a moment and try again.',
  'auth/user-disabled': 'This account has been disabled.',
  'auth/network-request-failed': 'Could not reach the sign-in service. Check your connection.',
  'auth/popup-closed-by-user': 'The sign-in window was closed before signing in finished.',
  'auth/cancelled-popup-request': 'Another sign-in window is already open.',
  'auth/popup-blocked': 'The browser blocked the sign-in window. Allow pop-ups for this site and try again.',
};

export function authErrorCode(err: unknown): string {
  if (err && typeof err === 'object' && 'code' in err && typeof (err as { code: unknown }).code === 'string') {
    return (err as { code: string }).code;
  }
  return '';
}

/** Removes the provider's 'Firebase: ' prefix from an SDK message. */
export function stripProviderPrefix(message: string): string {
  return message.replace(/^Firebase:\s*/i, '').trim();
}

export function describeAuthError(err: unknown): AuthErrorNotice {
  const code = authErrorCode(err);
  if (code === 'auth/unauthorized-domain') {
    return { title: 'Domain Not Authorized', description: 'Redirecting to debug page with instructions...', redirectToDebug: true };
  }
  if (code === 'auth/operation-not-allowed') {
    return {
      title: 'Sign-in Method Disabled',
      description:
        "This sign-in method is not enabled. Please enable it in the provider's console under Authentication > Sign-in methods.",
      redirectToDebug: false,
    };
  }
  const raw = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  const description = FRIENDLY[code] ?? (stripProviderPrefix(raw) || 'Something went wrong while signing in.');
  return { title: 'Authentication Error', description, redirectToDebug: false };
}
