import { useTranslation } from 'react-i18next';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { CameraIcon, GiftIcon, PencilIcon, PlusIcon } from '../../../components/icons';
import { PageSpinner } from '../../../components/Spinner';
import { Tabs } from '../../../components/Tabs';
import { useToast } from '../../../app/shell/notices';
import { errorMessage } from '../../../lib/apiError';
import { usePageTitle } from '../../../lib/usePageTitle';
import { useDeleteWishlistItemMutation, useGetWishlistQuery } from '../api';
import { categoryOf, type WishlistItem } from '../types';
import { useCategoryLabel } from '../hooks/useCategoryLabel';
import { EditItemSheet } from './EditItemSheet';
import { GiftHistory } from './GiftHistory';
import { WishlistItemCard } from './WishlistItemCard';
import './wishlist.css';

/** The tab id of every item (its label is the catalog's `allItems`). */
export const ALL_ITEMS = 'All Items';

/** Categories in order of first appearance (the list is newest first). */
export function categoriesOf(items: readonly WishlistItem[]): string[] {
  return Array.from(new Set(items.map(categoryOf)));
}

interface Props {
  /** The list to show; the default list when absent. */
  listId?: string;
  /** Controls the app puts under the title (the list switcher and settings of lists). */
  toolbar?: ReactNode;
  /** The viewer keeps this list for someone else: cards show claims and suggestions (givers' marks). */
  givers?: boolean;
  /** More actions per item (a manager's own claim), put in by the app. */
  itemActions?: (item: WishlistItem) => ReactNode;
}

/** /wishlist (signed in only). */
export default function WishlistPage({ listId, toolbar, givers = false, itemActions }: Props = {}) {
  const { t } = useTranslation('wishlist');
  const categoryLabel = useCategoryLabel();
  usePageTitle(t('title'));
  const { data: items, isLoading, isError, error, refetch } = useGetWishlistQuery(listId);
  const [deleteItem] = useDeleteWishlistItemMutation();
  const [removingId, setRemovingId] = useState<string | null>(null);
  const [tab, setTab] = useState(ALL_ITEMS);
  const [editing, setEditing] = useState<WishlistItem | null>(null);
  const toast = useToast();

  const categories = useMemo(() => categoriesOf(items ?? []), [items]);
  const selected = tab === ALL_ITEMS || categories.includes(tab) ? tab : ALL_ITEMS;
  const visible = useMemo(
    () => (items ?? []).filter((i) => selected === ALL_ITEMS || categoryOf(i) === selected),
    [items, selected],
  );

  async function remove(item: WishlistItem) {
    if (!window.confirm(t('remove.confirm'))) return;
    setRemovingId(item.id);
    try {
      await deleteItem(item.id).unwrap();
      toast({ title: t('remove.doneTitle'), description: t('remove.doneText') });
    } catch (err) {
      toast({ title: t('error'), description: t('remove.failed', { message: errorMessage(err) }), variant: 'destructive' });
    } finally {
      setRemovingId(null);
    }
  }

  return (
    <section className="page wishlist-page" aria-labelledby="wishlist-title">
      <div className="page__head">
        <h1 id="wishlist-title" className="page__title">
          {t('title')}
        </h1>
        <div className="button-row">
          <Link to="/text-prompt" className="button button--primary button--small">
            <PlusIcon size={16} /> {t('addItem')}
          </Link>
          <Link to="/camera" className="button button--outline button--small">
            <CameraIcon size={16} /> {t('takePhoto')}
          </Link>
        </div>
      </div>
      {toolbar}

      {isLoading ? (
        <PageSpinner label={t('loading')} />
      ) : isError ? (
        <div className="card empty-state" role="alert">
          <h2 className="empty-state__title">{t('loadFailed')}</h2>
          <p className="muted">{errorMessage(error)}</p>
          <button type="button" className="button button--primary" onClick={() => void refetch()}>
            {t('tryAgain')}
          </button>
        </div>
      ) : !items || items.length === 0 ? (
        <div className="card empty-state">
          <span className="empty-state__icon">
            <GiftIcon size={48} />
          </span>
          <h2 className="empty-state__title">{t('empty.title')}</h2>
          <p className="muted">{t('empty.text')}</p>
          <div className="button-row button-row--center">
            <Link to="/text-prompt" className="button button--primary">
              <PencilIcon size={16} /> {t('empty.describe')}
            </Link>
            <Link to="/camera" className="button button--outline">
              <CameraIcon size={16} /> {t('empty.photo')}
            </Link>
          </div>
        </div>
      ) : (
        <Tabs
          tabs={[ALL_ITEMS, ...categories].map((c) => ({ id: c, label: c === ALL_ITEMS ? t('allItems') : categoryLabel(c) }))}
          selected={selected}
          onSelect={setTab}
          label={t('tabs')}
          className="wishlist-tabs"
        >
          <ul className="item-grid">
            {visible.map((item) => (
              <li key={item.id}>
                <WishlistItemCard
                  item={item}
                  removing={removingId === item.id}
                  onRemove={remove}
                  onEdit={setEditing}
                  givers={givers}
                  extra={itemActions?.(item)}
                />
              </li>
            ))}
          </ul>
        </Tabs>
      )}
      {items && <GiftHistory items={items} givers={givers} />}
      {editing && <EditItemSheet item={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}
