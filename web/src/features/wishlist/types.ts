import type { WishlistItem } from '../../lib/wishlistItem';

export type { NewWishlistItem, WishlistItem } from '../../lib/wishlistItem';

/** What the edit sheet sends with PATCH /api/wishlist/{id}: only the fields it changes. */
export type ItemEdit = Partial<Pick<WishlistItem, 'name' | 'priority' | 'quantity' | 'notes'>>;

/** FAMILY.md's priorities: 1 nice to have, 2 would love (the default), 3 most wanted. */
export const PRIORITIES = [
  { value: 1, label: 'Nice to have' },
  { value: 2, label: 'Would love' },
  { value: 3, label: 'Most wanted' },
] as const;

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
