import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { useFormat } from '../../../lib/format';
import { CategoryIcon } from '../../../components/CategoryIcon';
import { CartIcon } from '../../../components/icons';
import { ClaimedBy, SuggestedBy } from '../../../components/GiverMarks';
import { openInNewTab, shopSearchUrl } from '../../../lib/shop';
import { unitsLeft, type SharedItem, type SharedList } from '../types';
import { ClaimControls } from './ClaimControls';
import { SuggestionActions } from './SuggestionActions';
import { useSharedItemGiving } from '../givingSlots';
import '../../../components/mediaCard.css';

interface Props {
  token: string;
  item: SharedItem;
  /**
   * Only a member (signed in, not the owner) sees claim marks and controls. The owner and
   * anonymous visitors see the item as it was made: their answers carry no claim fields, and the
   * card never guesses any (docs/family.md, "how the surprise is kept").
   */
  viewer: SharedList['viewer'];
  /** The viewer keeps this list (a manager): they may edit and delete any suggestion. */
  manages?: boolean;
  /** Opens the suggestion form on this item. */
  onEditSuggestion?: (item: SharedItem) => void;
}

export function SharedItemCard({ token, item, viewer, manages = false, onEditSuggestion }: Props) {
  const isMember = viewer === 'member';
  const [imageFailed, setImageFailed] = useState(false);
  const { t } = useTranslation('lists');
  const format = useFormat();
  const taken = isMember && unitsLeft(item) === 0;
  // A gift nobody can claim any more offers no second purchase: only its taker keeps the shop link.
  const canShop = !taken || (item.mine ?? 0) > 0;
  const photo = imageFailed ? null : item.imageUrl;
  const hasPhoto = !!photo;
  const shopUrl = item.shoppingUrl || shopSearchUrl(item.searchQuery || item.name);
  const giving = useSharedItemGiving();
  return (
    <article
      className={`media-card shared-item${taken ? ' shared-item--taken' : ''}${hasPhoto ? '' : ' media-card--no-photo'}`}
      aria-labelledby={`shared-item-${item.id}`}
      data-testid="shared-item"
    >
      <div className="media-card__media">
        {photo ? (
          <img src={photo} alt="" loading="lazy" onError={() => setImageFailed(true)} />
        ) : (
          <span className="media-card__placeholder">
            <CategoryIcon category={item.category} size={40} />
          </span>
        )}
        {taken && <span className="shared-item__taken">{t('item.taken')}</span>}
      </div>
      <div className="media-card__body">
        {item.priority >= 3 && <p className="shared-item__wanted">{t('item.mostWanted')}</p>}
        <h3 id={`shared-item-${item.id}`} className="media-card__name">
          {item.name}
        </h3>
        {item.description && <p className="media-card__description">{item.description}</p>}
        {item.price && <p className="media-card__price">{format.price(item.price)}</p>}
        {item.quantity > 1 && <p className="muted">{t('item.wants', { count: item.quantity })}</p>}
        {item.notes && <p className="shared-item__notes">{item.notes}</p>}
        {isMember && (item.claimed ?? 0) > 0 && !taken && (
          <p className="shared-item__status">
            {t('item.takenOf', { claimed: item.claimed, total: item.quantity })}
          </p>
        )}
        {/* Suggestions and who claimed what are for givers only, whatever an answer carried. */}
        {isMember && item.suggested && <SuggestedBy by={item.suggestedBy} />}
        {isMember && <ClaimedBy claims={item.claims} />}
        {/* Giving together (features/giving, through the app): givers only, like claims. */}
        {isMember && giving && <div className="shared-item__giving">{giving({ token, item })}</div>}
      </div>
      <div className="media-card__actions">
        {canShop && (
          <button
            type="button"
            className="button button--outline button--small shared-item__shop"
            aria-label={t('item.shopFor', { name: item.name })}
            onClick={() => openInNewTab(shopUrl)}
          >
            <CartIcon size={16} /> {t('item.shop')}
          </button>
        )}
        {isMember && <ClaimControls token={token} item={item} />}
        {isMember && item.suggested && (manages || item.suggestedBy?.mine) && onEditSuggestion && (
          <SuggestionActions token={token} item={item} onEdit={onEditSuggestion} />
        )}
      </div>
    </article>
  );
}
