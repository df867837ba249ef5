import { useListName } from '../listName';
import { useTranslation } from 'react-i18next';
import { useId, useState } from 'react';
import { PlusIcon } from '../../../components/icons';
import { useGetListsQuery } from '../api';
import type { WishList } from '../types';
import { ListSettingsDialog } from './ListSettingsDialog';
import { NewListDialog } from './NewListDialog';
import './familyLists.css';

interface Props {
  /** The chosen list's id; the default list when absent. */
  selectedId?: string;
  onSelect: (list: WishList) => void;
}

/** My Wishlist's list switcher, "New list" and the chosen list's sharing settings. */
export function ListBar({ selectedId, onSelect }: Props) {
  const { data: lists } = useGetListsQuery();
  const [dialog, setDialog] = useState<'new' | 'settings' | null>(null);
  const selectId = useId();
  const { t } = useTranslation('lists');
  const listName = useListName();
  if (!lists || lists.length === 0) return null;
  const selected = lists.find((l) => l.id === selectedId) ?? lists.find((l) => l.isDefault) ?? lists[0];
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
        {lists.map((l) => (
          <option key={l.id} value={l.id}>
            {t('bar.option', { name: listName(l.name), count: l.itemCount })}
          </option>
        ))}
      </select>
      <button type="button" className="button button--outline button--small" onClick={() => setDialog('new')}>
        <PlusIcon size={16} /> {t('bar.newList')}
      </button>
      <button type="button" className="button button--outline button--small" onClick={() => setDialog('settings')}>
        {t('bar.share')}
      </button>
      {dialog === 'new' && (
        <NewListDialog
          onCancel={() => setDialog(null)}
          onCreated={(list) => {
            setDialog(null);
            onSelect(list);
          }}
        />
      )}
      {dialog === 'settings' && <ListSettingsDialog list={selected} onClose={() => setDialog(null)} />}
    </div>
  );
}
