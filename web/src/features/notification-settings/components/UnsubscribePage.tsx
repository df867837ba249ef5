import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { BusyButton } from '../../../components/BusyButton';
import { PageSpinner } from '../../../components/Spinner';
import { usePageTitle } from '../../../lib/usePageTitle';
import { describeUnsubscribe, unsubscribe } from '../api';
import type { Unsubscribed } from '../types';
import './notificationSettings.css';

type State = { step: 'loading' } | { step: 'unknown' } | { step: 'failed' } | { step: 'ask' | 'done'; what: Unsubscribed };

/**
 * /unsubscribe/:token: where an email's "Stop these emails" link (and a browser opening the
 * List-Unsubscribe address) lands. Opening it changes nothing; the button unsubscribes, with
 * the same one-click POST a mail program sends, and needs no sign-in.
 */
export default function UnsubscribePage() {
  const { t } = useTranslation('notification-settings');
  usePageTitle(t('unsubscribe.title'));
  const { token = '' } = useParams();
  const [state, setState] = useState<State>({ step: 'loading' });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    describeUnsubscribe(token)
      .then((what) => live && setState(what ? { step: 'ask', what } : { step: 'unknown' }))
      .catch(() => live && setState({ step: 'failed' }));
    return () => {
      live = false;
    };
  }, [token]);

  if (state.step === 'loading') return <PageSpinner label={t('loading')} />;

  async function confirm() {
    setBusy(true);
    try {
      const what = await unsubscribe(token);
      setState(what ? { step: 'done', what } : { step: 'unknown' });
    } catch {
      setState({ step: 'failed' });
    } finally {
      setBusy(false);
    }
  }

  const what = state.step === 'ask' || state.step === 'done' ? state.what : undefined;
  const names = what?.kinds?.map((k) => t(`kinds.${k}.title`)).join(', ');
  return (
    <div className="notification-settings">
      <section className="notification-settings__card" aria-labelledby="unsubscribe-title">
        <h1 id="unsubscribe-title">{t('unsubscribe.title')}</h1>
        {state.step === 'unknown' && <p role="alert">{t('unsubscribe.unknown')}</p>}
        {state.step === 'failed' && <p role="alert">{t('unsubscribe.failed')}</p>}
        {state.step === 'ask' && (
          <>
            <p>{what?.invitations ? t('unsubscribe.askInvitations') : t('unsubscribe.ask', { kinds: names })}</p>
            <BusyButton
              className="button button--primary"
              busy={busy}
              busyLabel={t('unsubscribe.busy')}
              busyText={t('unsubscribe.busy')}
              onClick={() => void confirm()}
            >
              {t('unsubscribe.button')}
            </BusyButton>
          </>
        )}
        {state.step === 'done' && (
          <p role="status">{what?.invitations ? t('unsubscribe.doneInvitations') : t('unsubscribe.done', { kinds: names })}</p>
        )}
        {what?.kinds && (
          <p>
            <Link to="/settings/notifications">{t('unsubscribe.settings')}</Link>
          </p>
        )}
      </section>
    </div>
  );
}
