/** A wishlist item as the gateway answers it (SPEC 3, plus the fields our backend keeps). */
export interface WishlistItem {
  id: string;
  name: string;
  description: string;
  price: string | null;
  imageUrl: string | null;
  category: string | null;
  features: string[];
  searchQuery: string | null;
  shoppingUrl: string | null;
  aiGenerated: boolean;
  sentToSanta: boolean;
  createdAt: string;
}

/** What POST /api/wishlist accepts; the form, the photo flow and gift options send subsets. */
export interface NewWishlistItem {
  name: string;
  description: string;
  category?: string | null;
  price?: string | number | null;
  imageUrl?: string | null;
  searchQuery?: string;
  shoppingUrl?: string;
  features?: string[];
  aiGenerated?: boolean;
  sentToSanta?: boolean;
  userId?: string;
}

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
