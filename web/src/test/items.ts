import type { WishlistItem } from '../lib/wishlistItem';

/**
 * An item as the API answers it, with plain defaults. Tests name only the fields they are
 * about, so a new item field changes this one fixture, not every test that shows an item.
 */
export function anItem(over: Partial<WishlistItem> = {}): WishlistItem {
  return {
    id: 'item-1',
    name: 'Red bicycle',
    description: 'A red bicycle with a bell',
    price: '$10',
    imageUrl: null,
    category: 'Toys',
    features: [],
    searchQuery: 'red bicycle',
    shoppingUrl: '',
    aiGenerated: false,
    sentToSanta: false,
    createdAt: '2026-11-01T10:00:00Z',
    listId: 'list-1',
    priority: 2,
    quantity: 1,
    notes: '',
    ...over,
  };
}
