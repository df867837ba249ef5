import type { WishlistItem } from '../../lib/wishlistItem';

export type { ItemEdit, NewWishlistItem, WishlistItem } from '../../lib/wishlistItem';

/** The priorities: 1 nice to have, 2 would love (the default), 3 most wanted (texts: `priorities.<n>`). */
export const PRIORITIES = [1, 2, 3] as const;

/** Category values of the add form (docs/spec.md, section 3); the labels are the catalog's `categories.<value>`. */
export const CATEGORIES = ['Electronics', 'Clothing', 'Toys', 'Home', 'Books', 'Sports', 'Beauty', 'Jewelry', 'Gift Cards', 'Other'] as const;

export const UNCATEGORIZED = 'Uncategorized';

export function categoryOf(item: Pick<WishlistItem, 'category'>): string {
  return item.category?.trim() || UNCATEGORIZED;
}
