import type { WishList } from '../features/lists/types';

/** A list as GET /api/lists answers it: the caller's own default list unless told otherwise. */
export function aList(over: Partial<WishList> = {}): WishList {
  return {
    id: 'default',
    name: 'My Wishlist',
    isDefault: true,
    itemCount: 2,
    revealAt: '2026-12-26T00:00:00Z',
    share: null,
    familyIds: [],
    recipient: { kind: 'self' },
    role: 'owner',
    managers: [],
    ...over,
  };
}

/** A list kept for Emma (no account) by the test user and Ben. */
export function emmasList(over: Partial<WishList> = {}): WishList {
  return aList({
    id: 'emma',
    name: 'Emma’s wishlist',
    isDefault: false,
    itemCount: 1,
    recipient: { kind: 'person', name: 'Emma' },
    role: 'manager',
    managers: [
      { uid: 'uid-123', displayName: 'Holly Berry' },
      { uid: 'u-ben', displayName: 'Ben' },
    ],
    ...over,
  });
}
