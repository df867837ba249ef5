import { useEffect, useState } from 'react';
import { daysUntilChristmas } from '../../../lib/christmas';
import { Snowfall } from '../../../components/Snowfall';
import './home.css';

/** Days until Christmas morning, with snow falling on the card (20 flakes). */
export function ChristmasCountdown() {
  const [days, setDays] = useState(() => daysUntilChristmas());

  useEffect(() => {
    // Refresh hourly so a screen left open overnight rolls over to the new day.
    const timer = setInterval(() => setDays(daysUntilChristmas()), 60 * 60 * 1000);
    return () => clearInterval(timer);
  }, []);

  return (
    <section className="card countdown" aria-labelledby="countdown-title">
      <Snowfall count={20} />
      <h1 id="countdown-title" className="countdown__title">
        {days === 0 ? 'Merry Christmas!' : 'Christmas Countdown'}
      </h1>
      {days === 0 ? (
        <p className="countdown__text">It&apos;s Christmas Day! Santa has been.</p>
      ) : (
        <p className="countdown__text">
          <span className="countdown__days" data-testid="countdown-days">
            {days}
          </span>{' '}
          {days === 1 ? 'day' : 'days'} until Christmas
        </p>
      )}
    </section>
  );
}
