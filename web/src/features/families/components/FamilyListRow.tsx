import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormat } from '../../../lib/format';
import { useListName } from '../../../lib/listName';
import type { FamilySharedList } from '../types';

interface Props {
  list: FamilySharedList;
  /** The caller's uid: their own default list is "My Wishlist", anyone else's "Tom's wishlist". */
  me: string;
  /** Shown under the name (the app puts how many gifts are still to buy there). */
  extra?: ReactNode;
}

/**
 * One list shared with the family: its name and owner, or, for a list kept for someone else,
 * "Emma's wishlist, kept by Ann and Ben" (with the list's own name when it has another).
 */
export function FamilyListRow({ list, me, extra }: Props) {
  const { t } = useTranslation('families');
  const format = useFormat();
  const listName = useListName();
  // A list kept for someone else goes by its recipient's name in the family.
  const forName = list.recipientName;
  const keepers = list.managedBy ?? [];
  if (!forName) {
    const mine = list.ownerUid === me;
    return (
      <Link to={`/l/${list.token}`} className="family-list-link" data-testid="family-list">
        <span className="family-list-link__name">{listName(list.name, mine ? null : list.ownerName)}</span>
        <span className="muted">{mine ? t('card.yourList') : list.ownerName}</span>
        {extra && <span className="family-list-link__extra">{extra}</span>}
      </Link>
    );
  }
  const title = t('card.listFor', { name: forName });
  return (
    <Link to={`/l/${list.token}`} className="family-list-link" data-testid="family-list">
      <span className="family-list-link__name">{keepers.length > 0 ? t('card.keptBy', { title, keepers: format.names(keepers) }) : title}</span>
      {list.name !== title && <span className="muted">{list.name}</span>}
      {extra && <span className="family-list-link__extra">{extra}</span>}
    </Link>
  );
}
