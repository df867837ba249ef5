import { useTranslation } from 'react-i18next';
import { useMemo } from 'react';
import { GiftIcon } from '../../../components/icons';
import { giftsByYear } from '../giftHistory';
import type { WishlistItem } from '../types';

/**
 * The list's gift history, by year: who gave what, from the claims the server sends the owner
 * once each claim's own reveal date has passed. Nothing is shown until there is one, so an owner
 * cannot tell an empty history from claims still secret.
 */
export function GiftHistory({ items, givers = false }: { items: readonly WishlistItem[]; givers?: boolean }) {
  const { t } = useTranslation('wishlist');
  // A manager's items carry this season's claims too: only those already revealed are history.
  const years = useMemo(() => giftsByYear(items, givers ? Date.now() : undefined), [items, givers]);
  if (years.length === 0) return null;
  return (
    <section className="card gift-history" aria-labelledby="gift-history-title" data-testid="gift-history">
      <h2 id="gift-history-title" className="gift-history__title">
        <GiftIcon size={20} /> {t('history.title')}
      </h2>
      {years.map(({ year, gifts }) => (
        <section key={year} className="gift-history__year" aria-labelledby={`gift-history-${year}`} data-testid="gift-year">
          <h3 id={`gift-history-${year}`} className="gift-history__year-title">
            {year}
          </h3>
          <ul className="gift-history__gifts">
            {gifts.map((gift) => (
              <li key={`${gift.itemId}-${gift.giver}-${gift.revealedAt}`}>
                {gift.quantity > 1
                  ? t('history.giftMany', { name: gift.name, giver: gift.giver, count: gift.quantity })
                  : t('history.gift', { name: gift.name, giver: gift.giver })}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
