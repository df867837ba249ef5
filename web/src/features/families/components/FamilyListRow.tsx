import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormat } from '../../../lib/format';
import type { FamilySharedList } from '../types';

/**
 * One list shared with the family: its name and owner, or, for a list kept for someone else,
 * "Emma's wishlist, kept by Ann and Ben" (with the list's own name when it has another).
 */
export function FamilyListRow({ list }: { list: FamilySharedList }) {
  const { t } = useTranslation('families');
  const format = useFormat();
  // A list kept for someone else goes by its recipient's name in the family.
  const forName = list.recipientName;
  const keepers = list.managedBy ?? [];
  if (!forName) {
    return (
      <Link to={`/l/${list.token}`} className="family-list-link" data-testid="family-list">
        <span className="family-list-link__name">{list.name}</span>
        <span className="muted">{list.ownerName}</span>
      </Link>
    );
  }
  const title = t('card.listFor', { name: forName });
  return (
    <Link to={`/l/${list.token}`} className="family-list-link" data-testid="family-list">
      <span className="family-list-link__name">{keepers.length > 0 ? t('card.keptBy', { title, keepers: format.names(keepers) }) : title}</span>
      {list.name !== title && <span className="muted">{list.name}</span>}
    </Link>
  );
}
