import { useTranslation } from 'react-i18next';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { loadFirebase } from '../bootstrap';
import { TextField } from '../../../components/Field';
import { SantaIcon } from '../../../components/icons';
import { Spinner } from '../../../components/Spinner';
import { Tabs } from '../../../components/Tabs';
import { takeRedirectAfterLogin } from '../../../lib/redirectAfterLogin';
import { usePageTitle } from '../../../lib/usePageTitle';
import { showToast } from '../../../app/shell/notices';
import { selectAuthLoading, selectAuthUnavailableReason, selectCurrentUser } from '../../../lib/session';
import { useAuthActions } from '../useAuthActions';
import { GoogleLogo } from './GoogleLogo';
import './login.css';

type Tab = 'signin' | 'signup';

/** /firebase-login and /login: sign in, sign up, password reset. */
export default function LoginPage() {
  const { t } = useTranslation('auth');
  usePageTitle(t('login.pageTitle'));
  const user = useAppSelector(selectCurrentUser);
  const loading = useAppSelector(selectAuthLoading);
  const unavailable = useAppSelector(selectAuthUnavailableReason);
  const navigate = useNavigate();
  const [tab, setTab] = useState<Tab>('signin');
  const dispatch = useAppDispatch();

  useEffect(() => {
    // Visitors who were never signed in here get the SDK only now (see SESSION_HINT_KEY).
    void loadFirebase(dispatch);
  }, [dispatch]);

  useEffect(() => {
    if (user && !loading) navigate(takeRedirectAfterLogin(), { replace: true });
  }, [user, loading, navigate]);

  return (
    <section className="page page--narrow login-page">
      <div className="card login-card">
        <div className="login-card__head">
          <SantaIcon size={72} />
          <h1 className="login-card__title">{t('login.title')}</h1>
          <p className="muted">{t('login.intro')}</p>
        </div>
        {unavailable && (
          <p className="notice notice--warning" role="alert">
            {t('login.unavailable')}
          </p>
        )}
        <Tabs
          tabs={[
            { id: 'signin', label: t('login.signIn') },
            { id: 'signup', label: t('login.signUp') },
          ]}
          selected={tab}
          onSelect={(id) => setTab(id as Tab)}
          label={t('login.tabs')}
        >
          {tab === 'signin' ? <SignInPanel busy={loading} /> : <SignUpPanel busy={loading} />}
        </Tabs>
        <p className="login-card__terms">{t('login.terms')}</p>
        <p className="login-card__help">
          <Link to="/firebase-debug">{t('login.help')}</Link>
        </p>
      </div>
    </section>
  );
}

function useMissingFieldsToast() {
  const dispatch = useAppDispatch();
  const { t } = useTranslation('auth');
  return () =>
    dispatch(showToast({ title: t('login.missingFields'), description: t('login.missingBoth'), variant: 'destructive' }));
}

/** Errors are already shown as toasts by useAuthActions; the forms just stay as they are. */
async function swallow(action: Promise<void>): Promise<void> {
  try {
    await action;
  } catch {
    /* shown by the toast */
  }
}

function SignInPanel({ busy }: { busy: boolean }) {
  const { signInWithEmail, signInWithGoogle, resetPassword } = useAuthActions();
  const missingFields = useMissingFieldsToast();
  const dispatch = useAppDispatch();
  const { t } = useTranslation('auth');
  const [mode, setMode] = useState<'signin' | 'reset'>('signin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState<'' | 'email' | 'google' | 'reset'>('');

  async function onSignIn(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || !password) return missingFields();
    setPending('email');
    await swallow(signInWithEmail(email, password));
    setPending('');
  }

  async function onGoogle() {
    setPending('google');
    await swallow(signInWithGoogle());
    setPending('');
  }

  async function onReset(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) {
      dispatch(showToast({ title: t('login.missingFields'), description: t('login.missingEmail'), variant: 'destructive' }));
      return;
    }
    setPending('reset');
    try {
      await resetPassword(email);
      setMode('signin');
    } catch {
      /* shown by the toast */
    }
    setPending('');
  }

  if (mode === 'reset') {
    return (
      <form className="form" onSubmit={onReset} noValidate aria-label={t('login.resetForm')}>
        <h2 className="form__title">{t('login.resetTitle')}</h2>
        <p className="muted">{t('login.resetText')}</p>
        <TextField label={t('login.email')} type="email" autoComplete="email" value={email} onValue={setEmail} />
        <button type="submit" className="button button--primary button--block" disabled={busy || pending !== ''}>
          {pending === 'reset' && <Spinner size="small" label={t('login.sending')} />}
          {t('login.sendReset')}
        </button>
        <button type="button" className="button button--link" onClick={() => setMode('signin')}>
          {t('login.backToSignIn')}
        </button>
      </form>
    );
  }

  return (
    <form className="form" onSubmit={onSignIn} noValidate aria-label={t('login.signInForm')}>
      <TextField label={t('login.email')} type="email" autoComplete="email" value={email} onValue={setEmail} />
      <TextField label={t('login.password')} type="password" autoComplete="current-password" value={password} onValue={setPassword} />
      <button type="button" className="button button--link form__forgot" onClick={() => setMode('reset')}>
        {t('login.forgot')}
      </button>
      <button type="submit" className="button button--primary button--block" disabled={busy || pending !== ''}>
        {pending === 'email' && <Spinner size="small" label={t('login.signingIn')} />}
        {t('login.signInEmail')}
      </button>
      <OrWithGoogle onClick={onGoogle} disabled={busy || pending !== ''} pending={pending === 'google'} spinnerLabel={t('login.signingIn')}>
        {t('login.signInGoogle')}
      </OrWithGoogle>
    </form>
  );
}

function SignUpPanel({ busy }: { busy: boolean }) {
  const { signUpWithEmail, signInWithGoogle } = useAuthActions();
  const missingFields = useMissingFieldsToast();
  const { t } = useTranslation('auth');
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState<'' | 'email' | 'google'>('');

  async function onSignUp(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || !password) return missingFields();
    setPending('email');
    await swallow(signUpWithEmail(email, password, displayName));
    setPending('');
  }

  async function onGoogle() {
    setPending('google');
    await swallow(signInWithGoogle());
    setPending('');
  }

  return (
    <form className="form" onSubmit={onSignUp} noValidate aria-label={t('login.signUpForm')}>
      <TextField label={t('login.displayName')} optional type="text" autoComplete="nickname" value={displayName} onValue={setDisplayName} />
      <TextField label={t('login.email')} type="email" autoComplete="email" value={email} onValue={setEmail} />
      <TextField label={t('login.password')} hint={t('login.passwordHint')} type="password" autoComplete="new-password" value={password} onValue={setPassword} />
      <button type="submit" className="button button--primary button--block" disabled={busy || pending !== ''}>
        {pending === 'email' && <Spinner size="small" label={t('login.creating')} />}
        {t('login.create')}
      </button>
      <OrWithGoogle onClick={onGoogle} disabled={busy || pending !== ''} pending={pending === 'google'} spinnerLabel={t('login.signingUp')}>
        {t('login.signUpGoogle')}
      </OrWithGoogle>
    </form>
  );
}

interface OrWithGoogleProps {
  onClick: () => void;
  disabled: boolean;
  pending: boolean;
  spinnerLabel: string;
  children: string;
}

/** The 'or' divider and the Google button under both forms. */
function OrWithGoogle({ onClick, disabled, pending, spinnerLabel, children }: OrWithGoogleProps) {
  const { t } = useTranslation('auth');
  return (
    <>
      <div className="divider" aria-hidden="true">
        <span>{t('login.or')}</span>
      </div>
      <button type="button" className="button button--outline button--block" onClick={onClick} disabled={disabled}>
        {pending ? <Spinner size="small" label={spinnerLabel} /> : <GoogleLogo />}
        {children}
      </button>
    </>
  );
}
