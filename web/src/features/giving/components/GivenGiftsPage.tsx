import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { GiftIcon } from '../../../components/icons';
import { PageSpinner } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/apiError';
import { useFormat } from '../../../lib/format';
import { usePageTitle } from '../../../lib/usePageTitle';
import { useGetGivenGiftsQuery } from '../api';
import type { GivenGift } from '../types';
import { useMoney } from './useMoney';
import './giving.css';

/** Gifts by season, in the order the server gives them (newest season first). */
export function bySeason(gifts: readonly GivenGift[]): [number, GivenGift[]][] {
  const seasons = new Map<number, GivenGift[]>();
  for (const gift of gifts) seasons.set(gift.season, [...(seasons.get(gift.season) ?? []), gift]);
  return [...seasons.entries()];
}

function GivenGiftRow({ gift }: { gift: GivenGift }) {
  const { t } = useTranslation('giving');
  const format = useFormat();
  const money = useMoney();
  return (
    <li className="given-gift" data-testid="given-gift">
      {gift.item.imageUrl ? <img className="given-gift__img" src={gift.item.imageUrl} alt="" loading="lazy" /> : <span className="given-gift__img" />}
      <div className="given-gift__text">
        <p className="given-gift__name">
          {gift.item.name}
          {gift.quantity > 1 && <span className="muted"> × {gift.quantity}</span>}
        </p>
        <p className="muted">
          {t('given.for', { person: gift.recipient.displayName })}
          {gift.together && ` · ${t('given.together', { amount: money(gift.together.amount, gift.together.currency) })}`}
        </p>
        {gift.thanks ? (
          <figure className="given-gift__thanks">
            <blockquote>{gift.thanks.message}</blockquote>
            <figcaption className="muted">
              {t('given.thankedOn', { person: gift.recipient.displayName, date: format.date(gift.thanks.at) })}
            </figcaption>
          </figure>
        ) : (
          <p className="muted given-gift__no-thanks">{t('given.noThanks')}</p>
        )}
      </div>
    </li>
  );
}

/** /gifts/given: "Gifts I gave", every gift whose reveal date has passed, by season, with its thanks. */
export default function GivenGiftsPage() {
  const { t } = useTranslation('giving');
  usePageTitle(t('given.title'));
  const { data, error, isLoading } = useGetGivenGiftsQuery();
  if (isLoading) return <PageSpinner label={t('given.loading')} />;
  const seasons = bySeason(data ?? []);
  return (
    <section className="page page--narrow" aria-labelledby="given-title">
      <h1 id="given-title" className="page__title">
        {t('given.title')}
      </h1>
      <p className="muted">{t('given.intro')}</p>
      {error && <p className="notice notice--warning">{errorMessage(error)}</p>}
      {!error && seasons.length === 0 && (
        <div className="card empty-state">
          <span className="empty-state__icon" aria-hidden="true">
            <GiftIcon size={44} />
          </span>
          <p>{t('given.empty')}</p>
          <Link to="/claims">{t('given.shoppingList')}</Link>
        </div>
      )}
      {seasons.map(([season, gifts]) => (
        <section key={season} className="card given-season" aria-labelledby={`given-${season}`} data-testid="given-season">
          <h2 id={`given-${season}`} className="given-season__title">
            {season}
          </h2>
          <ul className="given-season__list">
            {gifts.map((gift, index) => (
              <GivenGiftRow key={`${gift.item.name}-${gift.revealedAt}-${index}`} gift={gift} />
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
