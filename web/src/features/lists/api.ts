import { api } from '../../app/api';
import { apiRoute } from '../../lib/api/paths';
import type { ClaimEntry, ClaimRequest, ClaimResult, FamilyChoice, ListDraft, ListShare, SharedList, WishList } from './types';

const LISTS = { type: 'Lists' as const, id: 'ALL' };
const CLAIMS = { type: 'Claims' as const, id: 'ALL' };

export const familyListsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLists: build.query<WishList[], void>({
      query: () => apiRoute('GET', '/api/lists'),
      providesTags: [LISTS],
    }),
    createList: build.mutation<WishList, { name: string }>({
      query: (body) => ({ ...apiRoute('POST', '/api/lists'), body }),
      invalidatesTags: (_r, error) => (error ? [] : [LISTS]),
    }),
    updateList: build.mutation<WishList, { id: string } & ListDraft>({
      query: ({ id, ...body }) => ({ ...apiRoute('PATCH', '/api/lists/{id}', { id }), body }),
      // The reveal date decides whether the owner's items carry `claims`; familyIds what families show.
      invalidatesTags: (_r, error) =>
        error ? [] : [LISTS, { type: 'Wishlist', id: 'LIST' }, { type: 'Families', id: 'ALL' }],
    }),
    shareList: build.mutation<ListShare, string>({
      query: (id) => apiRoute('POST', '/api/lists/{id}/share', { id }),
      invalidatesTags: (_r, error) => (error ? [] : [LISTS]),
    }),
    unshareList: build.mutation<void, string>({
      query: (id) => apiRoute('DELETE', '/api/lists/{id}/share', { id }),
      invalidatesTags: (_r, error) => (error ? [] : [LISTS]),
    }),
    getSharedList: build.query<SharedList, string>({
      query: (token) => apiRoute('GET', '/api/shared/{token}', { token }),
      providesTags: (_r, _e, token) => [{ type: 'Shared', id: token }],
    }),
    claimItem: build.mutation<ClaimResult, { token: string; itemId: string } & ClaimRequest>({
      query: ({ token, itemId, ...body }) => ({
        ...apiRoute('PUT', '/api/shared/{token}/items/{itemId}/claim', { token, itemId }),
        body,
      }),
      // A 409 means someone else was quicker: read the list again either way.
      invalidatesTags: (_r, _e, { token }) => [{ type: 'Shared', id: token }, CLAIMS],
    }),
    releaseClaim: build.mutation<void, { token: string; itemId: string }>({
      query: ({ token, itemId }) => apiRoute('DELETE', '/api/shared/{token}/items/{itemId}/claim', { token, itemId }),
      invalidatesTags: (_r, _e, { token }) => [{ type: 'Shared', id: token }, CLAIMS],
    }),
    // The families a list can be shared with (only their ids and names are used here; the
    // families feature owns the rest of /api/families and the same 'Families' tag).
    getFamilyChoices: build.query<FamilyChoice[], void>({
      query: () => apiRoute('GET', '/api/families'),
      transformResponse: (families: FamilyChoice[]) => families.map(({ id, name }) => ({ id, name })),
      providesTags: [{ type: 'Families', id: 'ALL' }],
    }),
    getClaims: build.query<ClaimEntry[], void>({
      query: () => apiRoute('GET', '/api/claims'),
      providesTags: [CLAIMS],
    }),
  }),
});

export const {
  useGetListsQuery,
  useCreateListMutation,
  useUpdateListMutation,
  useShareListMutation,
  useUnshareListMutation,
  useGetSharedListQuery,
  useClaimItemMutation,
  useReleaseClaimMutation,
  useGetClaimsQuery,
  useGetFamilyChoicesQuery,
} = familyListsApi;
