import type { WishlistItem } from '../../lib/wishlistItem';

export type { NewWishlistItem, WishlistItem } from '../../lib/wishlistItem';

/** Category choices of the add form (SPEC 3): value / label. */
export const CATEGORIES = [
  { value: 'Electronics', label: 'Electronics' },
  { value: 'Clothing', label: 'Clothing & Apparel' },
  { value: 'Toys', label: 'Toys & Games' },
  { value: 'Home', label: 'Home & Kitchen' },
  { value: 'Books', label: 'Books & Media' },
  { value: 'Sports', label: 'Sports & Outdoors' },
  { value: 'Beauty', label: 'Beauty & Personal Care' },
  { value: 'Jewelry', label: 'Jewelry & Accessories' },
  { value: 'Gift Cards', label: 'Gift Cards' },
  { value: 'Other', label: 'Other' },
] as const;

export const UNCATEGORIZED = 'Uncategorized';

export function categoryOf(item: Pick<WishlistItem, 'category'>): string {
  return item.category?.trim() || UNCATEGORIZED;
}
