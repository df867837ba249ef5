/**
 * The wishlist item, shared by every feature that shows or saves one (the wishlist, the photo
 * flow, the live stream's refresh).
 */
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
