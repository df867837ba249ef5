import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { daysUntilChristmas } from '../../../lib/christmas';
import { Snowfall } from '../../../components/Snowfall';
import { useFormat } from '../../../lib/format';
import './home.css';

/** Days until Christmas morning, with snow falling on the card (20 flakes). */
export function ChristmasCountdown() {
  const [days, setDays] = useState(() => daysUntilChristmas());
  const { t } = useTranslation('home');
  const format = useFormat();

  useEffect(() => {
    // Refresh hourly so a screen left open overnight rolls over to the new day.
    const timer = setInterval(() => setDays(daysUntilChristmas()), 60 * 60 * 1000);
    return () => clearInterval(timer);
  }, []);

  return (
    <section className="card countdown" aria-labelledby="countdown-title">
      <Snowfall count={20} />
      <h1 id="countdown-title" className="countdown__title">
        {days === 0 ? t('countdown.merry') : t('countdown.title')}
      </h1>
      {days === 0 ? (
        <p className="countdown__text">{t('countdown.today')}</p>
      ) : (
        <p className="countdown__text">
          <span className="countdown__days" data-testid="countdown-days">
            {format.number(days)}
          </span>{' '}
          {t('common:countdown.days', { count: days })}
        </p>
      )}
    </section>
  );
}
