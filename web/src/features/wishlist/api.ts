import { api } from '../../app/api';
import { apiRoute, type ApiQuery } from '../../lib/api/paths';
import { uuid } from '../../lib/ids';
import type { ItemEdit, NewWishlistItem, WishlistItem } from './types';

const LIST = { type: 'Wishlist' as const, id: 'LIST' };
const RECENT = { type: 'Wishlist' as const, id: 'RECENT' };
// The lists (lists' list picker) carry each list's item count: adding or deleting an
// item changes it.
const LISTS = 'Lists' as const;

export const wishlistApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One list's items; without a list id, the default list (what the header's badge counts). */
    getWishlist: build.query<WishlistItem[], string | void>({
      query: (listId) => {
        const params: ApiQuery<'/api/wishlist', 'GET'> | undefined = listId ? { listId } : undefined;
        return { ...apiRoute('GET', '/api/wishlist'), params };
      },
      providesTags: (items) => [LIST, ...(items ?? []).map((i) => ({ type: 'Wishlist' as const, id: i.id }))],
    }),
    getRecentWishlist: build.query<WishlistItem[], void>({
      query: () => apiRoute('GET', '/api/wishlist/recent'),
      providesTags: [RECENT],
    }),
    addWishlistItem: build.mutation<WishlistItem, NewWishlistItem & { idempotencyKey?: string }>({
      query: ({ idempotencyKey, ...item }) => ({
        ...apiRoute('POST', '/api/wishlist'),
        body: item,
        headers: { 'Idempotency-Key': idempotencyKey ?? uuid() },
      }),
      invalidatesTags: (_result, error) => (error ? [] : [LIST, RECENT, LISTS]),
    }),
    updateWishlistItem: build.mutation<WishlistItem, { id: string } & ItemEdit>({
      query: ({ id, ...edit }) => ({ ...apiRoute('PATCH', '/api/wishlist/{id}', { id }), body: edit }),
      // Moving an item to another list changes the lists' counts too.
      invalidatesTags: (_result, error, { id }) => (error ? [] : [LIST, RECENT, { type: 'Wishlist', id }, LISTS]),
    }),
    deleteWishlistItem: build.mutation<void, string>({
      query: (id) => apiRoute('DELETE', '/api/wishlist/{id}', { id }),
      invalidatesTags: (_result, _error, id) => [LIST, RECENT, { type: 'Wishlist', id }, LISTS],
    }),
  }),
});

export const {
  useGetWishlistQuery,
  useGetRecentWishlistQuery,
  useAddWishlistItemMutation,
  useUpdateWishlistItemMutation,
  useDeleteWishlistItemMutation,
} = wishlistApi;
