import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import { getAuthToken } from '../lib/authToken';

/**
 * The one RTK Query API for the gateway (same origin). Features add their endpoints with
 * `api.injectEndpoints`, so a save in one feature refreshes lists owned by another through tags.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: fetchBaseQuery({
    baseUrl: '',
    prepareHeaders: async (headers) => {
      const token = await getAuthToken();
      if (token) headers.set('Authorization', `Bearer ${token}`);
      return headers;
    },
  }),
  // Lists, Shared (one shared list by token) and Claims belong to features/lists;
  // Families, SecretSanta (the caller's match, by family id) and SecretSantaMessages (the caller's
  // two conversations, by family id) to features/families.
  // Budgets (the caller's budgets and totals) and GiftsGiven ("Gifts I gave") to features/giving.
  tagTypes: ['Wishlist', 'Lists', 'Shared', 'Claims', 'Families', 'SecretSanta', 'SecretSantaMessages', 'Budgets', 'GiftsGiven'],
  // Wishlist data is never stale by time (docs/spec.md, section 7): it changes only through our own
  // saves and deletes, which invalidate tags, or through the live-update stream.
  keepUnusedDataFor: 300,
  refetchOnFocus: false,
  refetchOnReconnect: true,
  endpoints: () => ({}),
});
