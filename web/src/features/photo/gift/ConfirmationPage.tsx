import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { GiftIcon, SnowflakeIcon } from '../../../components/icons';
import { daysUntilChristmas } from '../../../lib/christmas';
import { readGiftDetails } from '../flow';
import { usePageTitle } from '../../../lib/usePageTitle';
import { selectCurrentUser } from '../../../lib/session';
import { factsFor } from '../../../lib/facts';
import { useFormat } from '../../../lib/format';
import './gift.css';

function pick<T>(list: readonly T[], random: () => number = Math.random): T {
  return list[Math.floor(random() * list.length) % list.length];
}

/** /confirmation (docs/spec.md, section 2 'Confirmation'), after a gift was sent to Santa. */
export default function ConfirmationPage() {
  const [gift] = useState(readGiftDetails);
  const [newsIndex] = useState(() => pick(factsFor('northPole').map((_, i) => i)));
  const [days] = useState(() => daysUntilChristmas());
  const user = useAppSelector(selectCurrentUser);
  const { t, i18n } = useTranslation('photo');
  const format = useFormat();
  const news = factsFor('northPole', i18n.language)[newsIndex];
  usePageTitle(t('confirmation.title', { name: gift.name }));

  return (
    <section className="page page--narrow confirmation-page" aria-labelledby="confirmation-title">
      <div className="card empty-state confirmation-card">
        <span className="empty-state__icon" aria-hidden="true">
          <GiftIcon size={44} />
        </span>
        <h1 id="confirmation-title" className="page__title confirmation-card__title">
          {t('confirmation.title', { name: gift.name })}
        </h1>
        <p>{t('confirmation.text')}</p>
        <div className="confirmation-countdown" data-testid="confirmation-days">
          {days === 0 ? (
            <strong>{t('confirmation.today')}</strong>
          ) : (
            <>
              <strong className="confirmation-countdown__days">{format.number(days)}</strong>
              <span>{t('common:countdown.days', { count: days })}</span>
            </>
          )}
        </div>
      </div>

      <aside className="card north-pole-news" aria-labelledby="news-title">
        <h2 id="news-title" className="north-pole-news__title">
          <SnowflakeIcon size={20} /> {t('confirmation.news')}
        </h2>
        <p>{news}</p>
      </aside>

      {!user && (
        <div className="card confirmation-login" aria-labelledby="save-title">
          <h2 id="save-title" className="confirmation-login__title">
            {t('confirmation.saveTitle')}
          </h2>
          <p>{t('confirmation.saveText')}</p>
          <Link to="/login" className="button button--outline">
            {t('confirmation.login')}
          </Link>
        </div>
      )}

      <div className="button-row button-row--center">
        <Link to="/" className="button button--outline">
          {t('confirmation.home')}
        </Link>
        <Link to="/camera" className="button button--primary">
          {t('confirmation.another')}
        </Link>
      </div>
    </section>
  );
}
