import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { usePageTitle } from '../../../lib/usePageTitle';
import { selectAuthUnavailableReason, selectCurrentUser } from '../../../lib/session';

interface ConfigSummary {
  projectId: string;
  authDomain: string;
  emulator: string;
}

/** /firebase-debug: what to check when signing in fails, with this page's own facts. */
export default function FirebaseDebugPage() {
  usePageTitle('Login Troubleshooting');
  const user = useAppSelector(selectCurrentUser);
  const unavailable = useAppSelector(selectAuthUnavailableReason);
  const [config, setConfig] = useState<ConfigSummary | null>(null);
  const [configError, setConfigError] = useState('');

  useEffect(() => {
    let active = true;
    fetch('/api/config')
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`GET /api/config answered ${r.status}`))))
      .then((body: { firebase?: { projectId?: string; authDomain?: string }; authEmulatorUrl?: string }) => {
        if (!active) return;
        setConfig({
          projectId: body.firebase?.projectId ?? '(not set)',
          authDomain: body.firebase?.authDomain ?? '(not set)',
          emulator: body.authEmulatorUrl || 'not used',
        });
      })
      .catch((err: unknown) => active && setConfigError(err instanceof Error ? err.message : String(err)));
    return () => {
      active = false;
    };
  }, []);

  const host = window.location.hostname;

  return (
    <section className="page page--narrow">
      <div className="card">
        <h1 className="page__title">Login Troubleshooting</h1>
        <p>If signing in does not work, these are the usual causes and what to do about them.</p>

        <h2 className="section-title">This page</h2>
        <dl className="facts">
          <dt>Domain</dt>
          <dd>
            <code>{host}</code>
          </dd>
          <dt>Signed in</dt>
          <dd>{user ? `yes, as ${user.email ?? user.username}` : 'no'}</dd>
          <dt>Sign-in service</dt>
          <dd>{unavailable ? `unavailable (${unavailable})` : 'loaded'}</dd>
          {config && (
            <>
              <dt>Project</dt>
              <dd>
                <code>{config.projectId}</code>
              </dd>
              <dt>Auth domain</dt>
              <dd>
                <code>{config.authDomain}</code>
              </dd>
              <dt>Auth emulator</dt>
              <dd>
                <code>{config.emulator}</code>
              </dd>
            </>
          )}
          {configError && (
            <>
              <dt>Configuration</dt>
              <dd>could not be read: {configError}</dd>
            </>
          )}
        </dl>

        <h2 className="section-title">Domain Not Authorized</h2>
        <ol className="steps">
          <li>Open the Firebase console and choose this project.</li>
          <li>
            Go to Authentication &gt; Settings &gt; Authorized domains and add <code>{host}</code>.
          </li>
          <li>Wait a minute, reload this app and sign in again.</li>
        </ol>

        <h2 className="section-title">Sign-in Method Disabled</h2>
        <ol className="steps">
          <li>In the Firebase console open Authentication &gt; Sign-in method.</li>
          <li>Enable Email/Password and Google.</li>
        </ol>

        <h2 className="section-title">The Google window closes or never opens</h2>
        <ul className="steps">
          <li>Allow pop-up windows for this site.</li>
          <li>Allow third-party cookies for the sign-in domain, or try another browser.</li>
          <li>Private browsing modes can block the storage sign-in needs.</li>
        </ul>

        <h2 className="section-title">Forgot your password?</h2>
        <p>
          Use &lsquo;Forgot Password?&rsquo; on the login screen; the email can take a few minutes and may land in spam.
        </p>

        <div className="button-row">
          <Link to="/firebase-login" className="button button--primary">
            Back to Log In
          </Link>
          <Link to="/" className="button button--outline">
            Home
          </Link>
        </div>
      </div>
    </section>
  );
}
