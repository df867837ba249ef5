import { useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { GiftIcon, SnowflakeIcon } from '../../../components/icons';
import { daysUntilChristmas } from '../../../lib/christmas';
import { readGiftDetails } from '../flow';
import { usePageTitle } from '../../../lib/usePageTitle';
import { selectCurrentUser } from '../../../lib/session';
import { factsFor } from '../../../lib/facts';
import './gift.css';

function pick<T>(list: readonly T[], random: () => number = Math.random): T {
  return list[Math.floor(random() * list.length) % list.length];
}

/** /confirmation (SPEC 'Confirmation'), after a gift was sent to Santa. */
export default function ConfirmationPage() {
  const [gift] = useState(readGiftDetails);
  const [news] = useState(() => pick(factsFor('northPole')));
  const [days] = useState(() => daysUntilChristmas());
  const user = useAppSelector(selectCurrentUser);
  usePageTitle(`${gift.name} Sent!`);

  return (
    <section className="page page--narrow confirmation-page" aria-labelledby="confirmation-title">
      <div className="card empty-state confirmation-card">
        <span className="empty-state__icon" aria-hidden="true">
          <GiftIcon size={44} />
        </span>
        <h1 id="confirmation-title" className="page__title confirmation-card__title">
          {gift.name} Sent!
        </h1>
        <p>
          Your gift request was sent to the North Pole. Santa and the elves will review it soon, so keep being nice!
        </p>
        <div className="confirmation-countdown" data-testid="confirmation-days">
          {days === 0 ? (
            <strong>It is Christmas Day!</strong>
          ) : (
            <>
              <strong className="confirmation-countdown__days">{days}</strong>
              <span>{days === 1 ? 'day' : 'days'} until Christmas</span>
            </>
          )}
        </div>
      </div>

      <aside className="card north-pole-news" aria-labelledby="news-title">
        <h2 id="news-title" className="north-pole-news__title">
          <SnowflakeIcon size={20} /> North Pole News
        </h2>
        <p>{news}</p>
      </aside>

      {!user && (
        <div className="card confirmation-login" aria-labelledby="save-title">
          <h2 id="save-title" className="confirmation-login__title">
            Save Your Gifts for Next Time
          </h2>
          <p>Log in to keep your wishlist, see it on your other devices and send more gifts to Santa.</p>
          <Link to="/login" className="button button--outline">
            Login
          </Link>
        </div>
      )}

      <div className="button-row button-row--center">
        <Link to="/" className="button button--outline">
          Return Home
        </Link>
        <Link to="/camera" className="button button--primary">
          Send Another Gift
        </Link>
      </div>
    </section>
  );
}
