import { createContext, useContext } from 'react';
import type { NewWishlistItem } from '../../lib/wishlistItem';

/** Saves one item to the signed-in user's wishlist; rejects with the API error. */
export type SaveItem = (item: NewWishlistItem, idempotencyKey: string) => Promise<unknown>;

/**
 * The photo flow saves gifts to the wishlist without knowing the wishlist feature: the app
 * provides this (with the wishlist's own mutation, so its cache and the badge follow).
 */
const SaveItemContext = createContext<SaveItem | null>(null);

export const SaveItemProvider = SaveItemContext.Provider;

export function useSaveItem(): SaveItem {
  const save = useContext(SaveItemContext);
  if (!save) throw new Error('useSaveItem needs a SaveItemProvider (the app shell provides it)');
  return save;
}
