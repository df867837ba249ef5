import { useCallback, type ReactNode } from 'react';
import { SaveItemProvider, type SaveItem } from '../features/photo/saveItem';
import { useAddWishlistItemMutation } from '../features/wishlist/api';

/** Where features that must not import each other are connected: the photo flow saves with the wishlist's mutation. */
export function FeatureBridges({ children }: { children: ReactNode }) {
  const [addItem] = useAddWishlistItemMutation();
  const save = useCallback<SaveItem>((item, idempotencyKey) => addItem({ ...item, idempotencyKey }).unwrap(), [addItem]);
  return <SaveItemProvider value={save}>{children}</SaveItemProvider>;
}
