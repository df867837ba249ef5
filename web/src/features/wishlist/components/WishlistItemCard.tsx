import { useTranslation } from 'react-i18next';
import { useState, type ReactNode } from 'react';
import { CategoryIcon } from '../../../components/CategoryIcon';
import { CartIcon, PencilIcon, TrashIcon } from '../../../components/icons';
import { ClaimedBy, SuggestedBy } from '../../../components/GiverMarks';
import { Spinner } from '../../../components/Spinner';
import { openInNewTab, shopSearchUrl } from '../../../lib/shop';
import { useFormat } from '../../../lib/format';
import { useCategoryLabel } from '../hooks/useCategoryLabel';
import { categoryOf, type WishlistItem } from '../types';
import '../../../components/mediaCard.css';
import './wishlist.css';

interface Props {
  item: WishlistItem;
  removing: boolean;
  onRemove: (item: WishlistItem) => void;
  onEdit?: (item: WishlistItem) => void;
  /**
   * The viewer gives on this list (a manager of a list kept for someone else): the card says who
   * is getting the item and whose suggestion it is. Never for the list's recipient.
   */
  givers?: boolean;
  /** More actions for the item (a manager's own claim). */
  extra?: ReactNode;
}

export function shopUrlFor(item: Pick<WishlistItem, 'shoppingUrl' | 'searchQuery' | 'name'>): string {
  return item.shoppingUrl || shopSearchUrl(item.searchQuery || item.name);
}

/** A claim of this season (a manager sees who is getting what); revealed ones are the gift history. */
function notYetGiven(claim: { revealedAt?: string }): boolean {
  return !claim.revealedAt || !(Date.parse(claim.revealedAt) <= Date.now());
}

export function WishlistItemCard({ item, removing, onRemove, onEdit, givers = false, extra }: Props) {
  const [imageFailed, setImageFailed] = useState(false);
  const { t } = useTranslation('wishlist');
  const format = useFormat();
  const category = useCategoryLabel()(categoryOf(item));
  return (
    <article className="media-card item-card" aria-labelledby={`item-${item.id}`} data-testid="wishlist-item">
      <div className="media-card__media">
        {item.imageUrl && !imageFailed ? (
          <img src={item.imageUrl} alt="" loading="lazy" onError={() => setImageFailed(true)} />
        ) : (
          <span className="media-card__placeholder">
            <CategoryIcon category={item.category} size={40} />
          </span>
        )}
        {item.aiGenerated && <span className="item-card__ai">{t('card.ai')}</span>}
      </div>
      <div className="media-card__body">
        <p className="item-card__category">
          <CategoryIcon category={item.category} size={16} />
          <span>{category}</span>
        </p>
        <h3 id={`item-${item.id}`} className="media-card__name">
          {item.name}
        </h3>
        {item.description && <p className="media-card__description">{item.description}</p>}
        {item.priority >= 3 && <p className="item-card__wanted">{t('card.mostWanted')}</p>}
        {item.price && <p className="media-card__price">{format.price(item.price)}</p>}
        {item.quantity > 1 && <p className="muted">{t('card.wants', { count: item.quantity })}</p>}
        {item.notes && <p className="media-card__description">{item.notes}</p>}
        {givers && item.suggested && <SuggestedBy by={item.suggestedBy} />}
        {givers ? (
          <ClaimedBy claims={item.claims?.filter(notYetGiven)} />
        ) : (
          item.claims &&
          item.claims.length > 0 && (
          // The server adds `claims` only after the list's reveal date: who gave what.
          <p className="item-card__given" data-testid="given-by">
            {t('card.from', { names: item.claims.map((c) => (c.quantity > 1 ? `${c.displayName} (${c.quantity})` : c.displayName)).join(', ') })}
          </p>
          )
        )}
      </div>
      <div className="media-card__actions item-card__actions">
        <button type="button" className="button button--primary button--small" onClick={() => openInNewTab(shopUrlFor(item))}>
          <CartIcon size={16} /> {t('card.shop')}
          <span className="visually-hidden">{t('card.shopFor', { name: item.name })}</span>
        </button>
        {onEdit && (
          <button type="button" className="button button--outline button--small" onClick={() => onEdit(item)} aria-label={t('card.editLabel', { name: item.name })}>
            <PencilIcon size={16} />
            <span aria-hidden="true">{t('card.edit')}</span>
          </button>
        )}
        <button
          type="button"
          className="button button--danger-outline button--small"
          onClick={() => onRemove(item)}
          disabled={removing}
          aria-label={t('card.removeLabel', { name: item.name })}
        >
          {removing ? <Spinner size="small" label={t('card.removing')} /> : <TrashIcon size={16} />}
          <span aria-hidden="true">{t('card.remove')}</span>
        </button>
        {extra}
      </div>
    </article>
  );
}
