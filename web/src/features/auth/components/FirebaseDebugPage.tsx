import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { apiRoute } from '../../../lib/api/paths';
import { usePageTitle } from '../../../lib/usePageTitle';
import { around } from '../../../lib/i18n';
import { selectAuthUnavailableReason, selectCurrentUser } from '../../../lib/session';
import './firebaseDebug.css';

interface ConfigSummary {
  projectId: string;
  authDomain: string;
  emulator: string;
}

/** /firebase-debug: what to check when signing in fails, with this page's own facts. */
export default function FirebaseDebugPage() {
  const { t } = useTranslation('auth');
  usePageTitle(t('debug.title'));
  const user = useAppSelector(selectCurrentUser);
  const unavailable = useAppSelector(selectAuthUnavailableReason);
  const [config, setConfig] = useState<ConfigSummary | null>(null);
  const [configError, setConfigError] = useState('');

  useEffect(() => {
    let active = true;
    const { url, method } = apiRoute('GET', '/api/config');
    fetch(url, { method })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`GET /api/config answered ${r.status}`))))
      .then((body: { firebase?: { projectId?: string; authDomain?: string }; authEmulatorUrl?: string }) => {
        if (!active) return;
        setConfig({
          projectId: body.firebase?.projectId ?? t('debug.notSet'),
          authDomain: body.firebase?.authDomain ?? t('debug.notSet'),
          emulator: body.authEmulatorUrl || t('debug.notUsed'),
        });
      })
      .catch((err: unknown) => active && setConfigError(err instanceof Error ? err.message : String(err)));
    return () => {
      active = false;
    };
  }, [t]);

  const host = window.location.hostname;
  const domainStep = around((marker) => t('debug.domainStep2', { host: marker }));

  return (
    <section className="page page--narrow">
      <div className="card">
        <h1 className="page__title">{t('debug.title')}</h1>
        <p>{t('debug.intro')}</p>

        <h2 className="section-title">{t('debug.thisPage')}</h2>
        <dl className="facts">
          <dt>{t('debug.domain')}</dt>
          <dd>
            <code>{host}</code>
          </dd>
          <dt>{t('debug.signedIn')}</dt>
          <dd>{user ? t('debug.yesAs', { who: user.email ?? user.username }) : t('debug.no')}</dd>
          <dt>{t('debug.service')}</dt>
          <dd>{unavailable ? t('debug.unavailable', { reason: unavailable }) : t('debug.loaded')}</dd>
          {config && (
            <>
              <dt>{t('debug.project')}</dt>
              <dd>
                <code>{config.projectId}</code>
              </dd>
              <dt>{t('debug.authDomain')}</dt>
              <dd>
                <code>{config.authDomain}</code>
              </dd>
              <dt>{t('debug.emulator')}</dt>
              <dd>
                <code>{config.emulator}</code>
              </dd>
            </>
          )}
          {configError && (
            <>
              <dt>{t('debug.configuration')}</dt>
              <dd>{t('debug.unreadable', { error: configError })}</dd>
            </>
          )}
        </dl>

        <h2 className="section-title">{t('debug.domainTitle')}</h2>
        <ol className="steps">
          <li>{t('debug.domainStep1')}</li>
          <li>
            {domainStep[0]}
            <code>{host}</code>
            {domainStep[1]}
          </li>
          <li>{t('debug.domainStep3')}</li>
        </ol>

        <h2 className="section-title">{t('debug.methodTitle')}</h2>
        <ol className="steps">
          <li>{t('debug.methodStep1')}</li>
          <li>{t('debug.methodStep2')}</li>
        </ol>

        <h2 className="section-title">{t('debug.popupTitle')}</h2>
        <ul className="steps">
          <li>{t('debug.popup1')}</li>
          <li>{t('debug.popup2')}</li>
          <li>{t('debug.popup3')}</li>
        </ul>

        <h2 className="section-title">{t('debug.forgotTitle')}</h2>
        <p>{t('debug.forgotText')}</p>

        <div className="button-row">
          <Link to="/firebase-login" className="button button--primary">
            {t('debug.backToLogIn')}
          </Link>
          <Link to="/" className="button button--outline">
            {t('debug.home')}
          </Link>
        </div>
      </div>
    </section>
  );
}
