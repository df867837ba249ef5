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

const TABS = [
  { id: 'signin', label: 'Sign In' },
  { id: 'signup', label: 'Sign Up' },
] as const;

/** /firebase-login and /login: sign in, sign up, password reset. */
export default function LoginPage() {
  usePageTitle('Log In');
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
          <h1 className="login-card__title">Santa&apos;s Wishlist</h1>
          <p className="muted">Log in to save your Christmas wishes and send them to Santa.</p>
        </div>
        {unavailable && (
          <p className="notice notice--warning" role="alert">
            Sign-in is unavailable right now. Please try again later.
          </p>
        )}
        <Tabs tabs={TABS} selected={tab} onSelect={(id) => setTab(id as Tab)} label="Sign in or sign up">
          {tab === 'signin' ? <SignInPanel busy={loading} /> : <SignUpPanel busy={loading} />}
        </Tabs>
        <p className="login-card__terms">By signing in, you agree to our Terms of Service and Privacy Policy.</p>
        <p className="login-card__help">
          <Link to="/firebase-debug">Having login issues?</Link>
        </p>
      </div>
    </section>
  );
}

function useMissingFieldsToast() {
  const dispatch = useAppDispatch();
  return () =>
    dispatch(
      showToast({ title: 'Missing fields', description: 'Please provide both email and password', variant: 'destructive' }),
    );
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
      dispatch(showToast({ title: 'Missing fields', description: 'Please provide your email address', variant: 'destructive' }));
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
      <form className="form" onSubmit={onReset} noValidate aria-label="Reset password">
        <h2 className="form__title">Reset your password</h2>
        <p className="muted">Enter your email and we will send you instructions to choose a new password.</p>
        <TextField label="Email" type="email" autoComplete="email" value={email} onValue={setEmail} />
        <button type="submit" className="button button--primary button--block" disabled={busy || pending !== ''}>
          {pending === 'reset' && <Spinner size="small" label="Sending" />}
          Send Reset Instructions
        </button>
        <button type="button" className="button button--link" onClick={() => setMode('signin')}>
          Back to Sign In
        </button>
      </form>
    );
  }

  return (
    <form className="form" onSubmit={onSignIn} noValidate aria-label="Sign in">
      <TextField label="Email" type="email" autoComplete="email" value={email} onValue={setEmail} />
      <TextField label="Password" type="password" autoComplete="current-password" value={password} onValue={setPassword} />
      <button type="button" className="button button--link form__forgot" onClick={() => setMode('reset')}>
        Forgot Password?
      </button>
      <button type="submit" className="button button--primary button--block" disabled={busy || pending !== ''}>
        {pending === 'email' && <Spinner size="small" label="Signing in" />}
        Sign In with Email
      </button>
      <OrWithGoogle onClick={onGoogle} disabled={busy || pending !== ''} pending={pending === 'google'} spinnerLabel="Signing in">
        Sign In with Google
      </OrWithGoogle>
    </form>
  );
}

function SignUpPanel({ busy }: { busy: boolean }) {
  const { signUpWithEmail, signInWithGoogle } = useAuthActions();
  const missingFields = useMissingFieldsToast();
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
    <form className="form" onSubmit={onSignUp} noValidate aria-label="Sign up">
      <TextField label="Display Name" optional type="text" autoComplete="nickname" value={displayName} onValue={setDisplayName} />
      <TextField label="Email" type="email" autoComplete="email" value={email} onValue={setEmail} />
      <TextField label="Password" hint="Password must be at least 6 characters" type="password" autoComplete="new-password" value={password} onValue={setPassword} />
      <button type="submit" className="button button--primary button--block" disabled={busy || pending !== ''}>
        {pending === 'email' && <Spinner size="small" label="Creating account" />}
        Create Account
      </button>
      <OrWithGoogle onClick={onGoogle} disabled={busy || pending !== ''} pending={pending === 'google'} spinnerLabel="Signing up">
        Sign Up with Google
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
  return (
    <>
      <div className="divider" aria-hidden="true">
        <span>or</span>
      </div>
      <button type="button" className="button button--outline button--block" onClick={onClick} disabled={disabled}>
        {pending ? <Spinner size="small" label={spinnerLabel} /> : <GoogleLogo />}
        {children}
      </button>
    </>
  );
}
