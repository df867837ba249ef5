import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/apiError';
import { useLanguage } from '../../../lib/i18n';
import { usePageTitle } from '../../../lib/usePageTitle';
import { useGetNotificationSettingsQuery, useUpdateNotificationSettingsMutation } from '../api';
import type { NotificationChannel, NotificationKind, NotificationSettings } from '../types';
import './notificationSettings.css';

const CHANNELS: NotificationChannel[] = ['push', 'email'];

/** The kinds in the order the server lists them, each with its state per channel. */
function rows(settings: NotificationSettings) {
  const kinds: NotificationKind[] = [];
  for (const p of settings.preferences) if (!kinds.includes(p.kind)) kinds.push(p.kind);
  return kinds.map((kind) => ({
    kind,
    channels: CHANNELS.map((channel) => settings.preferences.find((p) => p.kind === kind && p.channel === channel)),
  }));
}

/** /settings/notifications: a switch per kind of notice and channel, saved as it is flipped. */
export default function NotificationSettingsPage() {
  const { t } = useTranslation('notification-settings');
  usePageTitle(t('title'));
  const language = useLanguage();
  const { data, isLoading, isError } = useGetNotificationSettingsQuery();
  const [update] = useUpdateNotificationSettingsMutation();
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();

  // Emails are written in the app's language: the server learns it here too.
  useEffect(() => {
    if (data && data.language !== language) void update({ language }).catch(() => undefined);
  }, [data, language, update]);

  if (isLoading) return <PageSpinner label={t('loading')} />;
  if (isError || !data) {
    return (
      <div className="notification-settings">
        <p role="alert">{t('unavailable')}</p>
      </div>
    );
  }

  async function flip(kind: NotificationKind, channel: NotificationChannel, enabled: boolean) {
    const key = `${kind}/${channel}`;
    setBusy(key);
    setError(undefined);
    try {
      await update({ language, preferences: [{ kind, channel, enabled }] }).unwrap();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <div className="notification-settings">
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      <p className="muted">{t('secret')}</p>
      {error && <p role="alert">{error}</p>}
      <section className="notification-settings__card" aria-labelledby="notification-kinds">
        <h2 id="notification-kinds" className="visually-hidden">
          {t('kindsHeading')}
        </h2>
        <ul className="notification-settings__list">
          {rows(data).map(({ kind, channels }) => (
            <li key={kind} className="notification-settings__row" data-testid={`kind-${kind}`}>
              <div className="notification-settings__what">
                <p className="notification-settings__kind">{t(`kinds.${kind}.title`)}</p>
                <p className="notification-settings__hint">{t(`kinds.${kind}.hint`)}</p>
              </div>
              <div className="notification-settings__switches">
                {channels.map(
                  (p) =>
                    p && (
                      <label key={p.channel} className="notification-settings__switch">
                        <input
                          type="checkbox"
                          role="switch"
                          checked={p.enabled}
                          disabled={busy === `${kind}/${p.channel}`}
                          aria-label={t('switchLabel', { channel: t(`channels.${p.channel}`), kind: t(`kinds.${kind}.title`) })}
                          onChange={(e) => void flip(kind, p.channel, e.target.checked)}
                        />
                        <span aria-hidden="true">{t(`channels.${p.channel}`)}</span>
                        {p.channel === 'email' && p.digest && (
                          <span className="notification-settings__digest" aria-hidden="true">
                            {t('digest')}
                          </span>
                        )}
                      </label>
                    ),
                )}
              </div>
            </li>
          ))}
        </ul>
      </section>
      <p className="muted">{t('footer')}</p>
    </div>
  );
}
