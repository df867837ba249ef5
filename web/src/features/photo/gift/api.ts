import { api } from '../../../app/api';
import type { RequestBody } from '../../../lib/api/operations';
import { apiRoute } from '../../../lib/api/paths';
import { uuid } from '../../../lib/ids';
import type { WishlistItem } from '../../../lib/wishlistItem';

/**
 * The gift as the gift options screen has it (docs/spec.md, section 3 'Wishlist item as sent from
 * the gift options screen'): POST /api/santa's body, and the Idempotency-Key header's value.
 */
export type SantaRequest = RequestBody<'sendToSanta'> & { idempotencyKey?: string };

/**
 * POST /api/santa: saves the gift unless it is already on the wishlist, marks it sent to Santa,
 * and every open device of the user hears about it on the live stream.
 */
export const giftApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendToSanta: build.mutation<WishlistItem, SantaRequest>({
      query: ({ idempotencyKey, ...body }) => ({
        ...apiRoute('POST', '/api/santa'),
        body,
        headers: { 'Idempotency-Key': idempotencyKey ?? uuid() },
      }),
      invalidatesTags: (_result, error) =>
        error
          ? []
          : [
              { type: 'Wishlist', id: 'LIST' },
              { type: 'Wishlist', id: 'RECENT' },
            ],
    }),
  }),
});

export const { useSendToSantaMutation } = giftApi;
