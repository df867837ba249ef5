import { useListName } from '../../../lib/listName';
import { useTranslation } from 'react-i18next';
import { useId, useState } from 'react';
import { PlusIcon } from '../../../components/icons';
import { useGetListsQuery } from '../api';
import { isKeptForOthers, type WishList } from '../types';
import { ListSettingsDialog } from './ListSettingsDialog';
import { NewListDialog } from './NewListDialog';
import './familyLists.css';

interface Props {
  /** The chosen list's id; the default list when absent. */
  selectedId?: string;
  onSelect: (list: WishList) => void;
}

/**
 * My Wishlist's list switcher, "New list" and the chosen list's settings. The caller's own lists
 * (a list made for them counts as their own) come apart from the lists they keep for others.
 */
export function ListBar({ selectedId, onSelect }: Props) {
  const { data: lists } = useGetListsQuery();
  const [dialog, setDialog] = useState<'new' | 'settings' | null>(null);
  const selectId = useId();
  const { t } = useTranslation('lists');
  const listName = useListName();
  if (!lists || lists.length === 0) return null;
  const selected = lists.find((l) => l.id === selectedId) ?? lists.find((l) => l.isDefault) ?? lists[0];
  const mine = lists.filter((l) => !isKeptForOthers(l));
  const kept = lists.filter(isKeptForOthers);
  const option = (l: WishList) => (
    <option key={l.id} value={l.id}>
      {t('bar.option', { name: listName(l.name), count: l.itemCount })}
    </option>
  );
  const selectedIsKept = isKeptForOthers(selected);
  return (
    <div className="list-bar">
      <label htmlFor={selectId} className="visually-hidden">
        {t('bar.list')}
      </label>
      <select
        id={selectId}
        className="input list-bar__select"
        value={selected.id}
        onChange={(e) => {
          const next = lists.find((l) => l.id === e.target.value);
          if (next) onSelect(next);
        }}
      >
        {kept.length === 0 ? (
          lists.map(option)
        ) : (
          <>
            <optgroup label={t('bar.mine')}>{mine.map(option)}</optgroup>
            <optgroup label={t('bar.kept')}>{kept.map(option)}</optgroup>
          </>
        )}
      </select>
      <button type="button" className="button button--outline button--small" onClick={() => setDialog('new')}>
        <PlusIcon size={16} /> {t('bar.newList')}
      </button>
      <button type="button" className="button button--outline button--small" onClick={() => setDialog('settings')}>
        {selectedIsKept ? t('bar.settings') : t('bar.share')}
      </button>
      {selectedIsKept && !selected.share && (
        <p className="muted list-bar__hint" data-testid="kept-no-link">
          {t('bar.keptNoLink')}
        </p>
      )}
      {dialog === 'new' && (
        <NewListDialog
          onCancel={() => setDialog(null)}
          onCreated={(list) => {
            setDialog(null);
            onSelect(list);
          }}
        />
      )}
      {dialog === 'settings' && (
        <ListSettingsDialog
          list={selected}
          onClose={() => setDialog(null)}
          onLeft={() => {
            const home = lists.find((l) => l.isDefault);
            if (home) onSelect(home);
          }}
        />
      )}
    </div>
  );
}
