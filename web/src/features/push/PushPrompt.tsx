import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../lib/i18n';
import { enablePush, onPushOffer, pushPermission, syncPushLanguage, type PushReason } from '../../lib/push';
import { safeGet, safeSet } from '../../lib/storage';
import './push.css';

const DISMISSED = 'santa.pushPrompt.dismissed';

/**
 * Offers notifications at a moment that explains them: when a feature calls offerPush (after
 * sharing a list, after joining a family). Never on first load, and not once answered or
 * dismissed, nor where the browser cannot push. Mounted once by the shell.
 */
export function PushPrompt() {
  const { t } = useTranslation('push');
  const [reason, setReason] = useState<PushReason | null>(null);
  const [state, setState] = useState<'ask' | 'busy' | 'on' | 'off'>('ask');
  const language = useLanguage();
  // A device that subscribed is told of a new language, so its reminders follow the app's.
  useEffect(() => {
    syncPushLanguage(language).catch((err: unknown) => console.warn('push language not updated', err));
  }, [language]);

  useEffect(
    () =>
      onPushOffer((next) => {
        // 'granted' too: the browser may allow notifications (another site setting, a profile)
        // while this device has not subscribed yet.
        const permission = pushPermission();
        if ((permission === 'default' || permission === 'granted') && safeGet(localStorage, DISMISSED) !== '1') setReason(next);
      }),
    [],
  );
  if (!reason) return null;

  async function turnOn() {
    setState('busy');
    const on = await enablePush().catch((err: unknown) => {
      console.warn('push subscription failed', err);
      return false;
    });
    setState(on ? 'on' : 'off');
    safeSet(localStorage, DISMISSED, '1'); // answered: not offered again on this device
  }

  function close() {
    setReason(null);
  }

  return (
    <div className="card push-prompt" role="region" aria-label={t('title')} data-testid="push-prompt">
      {state === 'on' || state === 'off' ? (
        <div className="push-prompt__row">
          <p className="push-prompt__text">{t(state)}</p>
          <button type="button" className="button button--outline button--small" onClick={close}>
            {t('close')}
          </button>
        </div>
      ) : (
        <>
          <p className="push-prompt__title">{t('title')}</p>
          <p className="push-prompt__text">{t(reason)}</p>
          <div className="push-prompt__row">
            <button type="button" className="button button--primary button--small" disabled={state === 'busy'} onClick={() => void turnOn()}>
              {t('turnOn')}
            </button>
            <button
              type="button"
              className="button button--outline button--small"
              onClick={() => {
                safeSet(localStorage, DISMISSED, '1');
                close();
              }}
            >
              {t('notNow')}
            </button>
          </div>
        </>
      )}
    </div>
  );
}
