import { i18next } from '../../lib/i18n';

/** How an auth error is shown (docs/spec.md, section 8 'Authentication'). */
export interface AuthErrorNotice {
  title: string;
  description: string;
  /** auth/unauthorized-domain sends the user to /firebase-debug after 1.5 s. */
  redirectToDebug: boolean;
}

export const DEBUG_REDIRECT_MS = 1500;


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

/** The texts are the 'auth' catalog's `errors`: a friendly one per known provider code ('auth/…'). */
export function describeAuthError(err: unknown): AuthErrorNotice {
  const t = i18next.getFixedT(null, 'auth');
  const code = authErrorCode(err);
  if (code === 'auth/unauthorized-domain') {
    return { title: t('errors.domainTitle'), description: t('errors.domainText'), redirectToDebug: true };
  }
  if (code === 'auth/operation-not-allowed') {
    return { title: t('errors.methodTitle'), description: t('errors.methodText'), redirectToDebug: false };
  }
  const raw = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  const friendly = /^auth\/[a-z-]+$/.test(code) && i18next.exists(`errors.${code}`, { ns: 'auth' }) ? t(`errors.${code}`) : '';
  const description = friendly || stripProviderPrefix(raw) || t('errors.generic');
  return { title: t('errors.authTitle'), description, redirectToDebug: false };
}
