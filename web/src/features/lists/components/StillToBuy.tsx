import { useTranslation } from 'react-i18next';
import { useGetSharedListQuery } from '../api';
import { stillToBuy } from '../types';
import './familyLists.css';

/**
 * "3 gifts still to buy" for a list shared with the caller's family. The server answers claim
 * fields only to givers, so nothing is shown on a list the caller is the recipient of (their own,
 * or one kept for them). A claim anywhere, or a live `shared-list-changed`, reads it again.
 */
export function StillToBuy({ token }: { token: string }) {
  const { t } = useTranslation('lists');
  const { data } = useGetSharedListQuery(token);
  if (!data) return null;
  const left = stillToBuy(data);
  if (left === null) return null;
  let text = t('toBuy.left', { count: left });
  if (data.items.length === 0) text = t('toBuy.empty');
  else if (left === 0) text = t('toBuy.none');
  return (
    <span className={`still-to-buy${left > 0 ? ' still-to-buy--open' : ''}`} data-testid="still-to-buy">
      {text}
    </span>
  );
}
