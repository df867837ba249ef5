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
import { EditItemSheet } from './EditItemSheet';
import { WishlistItemCard } from './WishlistItemCard';
import './wishlist.css';

export const ALL_ITEMS = 'All Items';
export const REMOVE_CONFIRMATION = 'Are you sure you want to remove this item from your wishlist?';

/** Categories in order of first appearance (the list is newest first). */
export function categoriesOf(items: readonly WishlistItem[]): string[] {
  return Array.from(new Set(items.map(categoryOf)));
}

interface Props {
  /** The list to show; the default list when absent. */
  listId?: string;
  /** Controls the app puts under the title (the list switcher and settings of family-lists). */
  toolbar?: ReactNode;
}

/** /wishlist (signed in only). */
export default function WishlistPage({ listId, toolbar }: Props = {}) {
  usePageTitle('My Wishlist');
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
    if (!window.confirm(REMOVE_CONFIRMATION)) return;
    setRemovingId(item.id);
    try {
      await deleteItem(item.id).unwrap();
      toast({ title: 'Item removed', description: 'Item has been removed from your wishlist.' });
    } catch (err) {
      toast({ title: 'Error', description: `Failed to remove item: ${errorMessage(err)}`, variant: 'destructive' });
    } finally {
      setRemovingId(null);
    }
  }

  return (
    <section className="page wishlist-page" aria-labelledby="wishlist-title">
      <div className="page__head">
        <h1 id="wishlist-title" className="page__title">
          My Wishlist
        </h1>
        <div className="button-row">
          <Link to="/text-prompt" className="button button--primary button--small">
            <PlusIcon size={16} /> Add Item
          </Link>
          <Link to="/camera" className="button button--outline button--small">
            <CameraIcon size={16} /> Take Photo
          </Link>
        </div>
      </div>
      {toolbar}

      {isLoading ? (
        <PageSpinner label="Loading your wishlist" />
      ) : isError ? (
        <div className="card empty-state" role="alert">
          <h2 className="empty-state__title">Could not load your wishlist</h2>
          <p className="muted">{errorMessage(error)}</p>
          <button type="button" className="button button--primary" onClick={() => void refetch()}>
            Try Again
          </button>
        </div>
      ) : !items || items.length === 0 ? (
        <div className="card empty-state">
          <span className="empty-state__icon">
            <GiftIcon size={48} />
          </span>
          <h2 className="empty-state__title">Your Wishlist is Empty</h2>
          <p className="muted">Add your first gift idea by describing it or taking a photo.</p>
          <div className="button-row button-row--center">
            <Link to="/text-prompt" className="button button--primary">
              <PencilIcon size={16} /> Describe an Item
            </Link>
            <Link to="/camera" className="button button--outline">
              <CameraIcon size={16} /> Take a Photo
            </Link>
          </div>
        </div>
      ) : (
        <Tabs
          tabs={[ALL_ITEMS, ...categories].map((c) => ({ id: c, label: c }))}
          selected={selected}
          onSelect={setTab}
          label="Wishlist categories"
          className="wishlist-tabs"
        >
          <ul className="item-grid">
            {visible.map((item) => (
              <li key={item.id}>
                <WishlistItemCard item={item} removing={removingId === item.id} onRemove={remove} onEdit={setEditing} />
              </li>
            ))}
          </ul>
        </Tabs>
      )}
      {editing && <EditItemSheet item={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}
