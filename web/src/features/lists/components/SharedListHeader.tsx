import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format';
import { useListName } from '../../../lib/listName';
import { recipientName, type SharedList } from '../types';

/**
 * Whose list it is: "Emma's wishlist, kept by Ann and Ben" for a list kept for someone else,
 * "Tom's wishlist" otherwise, and to its recipient (viewer owner) only "Your list": the recipient
 * sees their list exactly as an owner sees their own.
 */
export function SharedListHeader({ data }: { data: SharedList }) {
  const { t } = useTranslation('lists');
  const format = useFormat();
  const listName = useListName();
  const forName = recipientName(data.list.recipient);
  const keepers = data.list.managedBy ?? [];
  let whose = t('shared.whose', { owner: data.list.ownerName });
  if (data.viewer === 'owner') whose = t('shared.yours');
  else if (forName && keepers.length > 0) whose = t('shared.keptBy', { name: forName, keepers: format.names(keepers) });
  else if (forName) whose = t('shared.whose', { owner: forName });
  const title = listName(data.list.name, data.viewer === 'owner' ? null : (forName ?? data.list.ownerName));
  return (
    <header className="shared-list__header">
      {/* Someone's default list is already titled "Tom's wishlist": the line would say it twice. */}
      {whose !== title && (
        <p className="muted" data-testid="shared-whose">
          {whose}
        </p>
      )}
      <h1 id="shared-list-title" className="page__title">
        {title}
      </h1>
    </header>
  );
}
