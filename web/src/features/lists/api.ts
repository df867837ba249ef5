import { api } from '../../app/api';
import { apiRoute } from '../../lib/api/paths';
import type {
  ClaimEntry,
  ClaimRequest,
  ClaimResult,
  FamilyChoice,
  ListDraft,
  ListManager,
  ListShare,
  RecipientDraft,
  SharedItem,
  SharedList,
  SuggestionDraft,
  WishList,
} from './types';

const LISTS = { type: 'Lists' as const, id: 'ALL' };
const CLAIMS = { type: 'Claims' as const, id: 'ALL' };
// A manager's own view of a list they keep (GET /api/wishlist?listId=) shows who is getting what
// and the relatives' suggestions: a claim or a suggestion changes it too.
const WISHLIST = { type: 'Wishlist' as const, id: 'LIST' };

export const familyListsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLists: build.query<WishList[], void>({
      query: () => apiRoute('GET', '/api/lists'),
      providesTags: [LISTS],
    }),
    createList: build.mutation<WishList, { name?: string; recipient?: RecipientDraft }>({
      query: (body) => ({ ...apiRoute('POST', '/api/lists'), body }),
      invalidatesTags: (_r, error) => (error ? [] : [LISTS]),
    }),
    updateList: build.mutation<WishList, { id: string } & ListDraft>({
      query: ({ id, ...body }) => ({ ...apiRoute('PATCH', '/api/lists/{id}', { id }), body }),
      // The reveal date decides whether the owner's items carry `claims`; familyIds what families show.
      invalidatesTags: (_r, error) => (error ? [] : [LISTS, WISHLIST, { type: 'Families', id: 'ALL' }]),
    }),
    addManager: build.mutation<{ managers: ListManager[] }, { id: string; uid: string }>({
      query: ({ id, uid }) => ({ ...apiRoute('POST', '/api/lists/{id}/managers', { id }), body: { uid } }),
      // Families show who keeps a list (managedBy).
      invalidatesTags: (_r, error) => (error ? [] : [LISTS, { type: 'Families', id: 'ALL' }]),
    }),
    removeManager: build.mutation<void, { id: string; uid: string }>({
      query: ({ id, uid }) => apiRoute('DELETE', '/api/lists/{id}/managers/{uid}', { id, uid }),
      invalidatesTags: (_r, error) => (error ? [] : [LISTS, { type: 'Families', id: 'ALL' }]),
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
      invalidatesTags: (_r, _e, { token }) => [{ type: 'Shared', id: token }, CLAIMS, WISHLIST],
    }),
    releaseClaim: build.mutation<void, { token: string; itemId: string }>({
      query: ({ token, itemId }) => apiRoute('DELETE', '/api/shared/{token}/items/{itemId}/claim', { token, itemId }),
      invalidatesTags: (_r, _e, { token }) => [{ type: 'Shared', id: token }, CLAIMS, WISHLIST],
    }),
    suggestGift: build.mutation<SharedItem, { token: string } & SuggestionDraft>({
      query: ({ token, ...body }) => ({ ...apiRoute('POST', '/api/shared/{token}/suggestions', { token }), body }),
      invalidatesTags: (_r, error, { token }) => (error ? [] : [{ type: 'Shared', id: token }, WISHLIST]),
    }),
    editSuggestion: build.mutation<SharedItem, { token: string; itemId: string } & Partial<SuggestionDraft>>({
      query: ({ token, itemId, ...body }) => ({
        ...apiRoute('PATCH', '/api/shared/{token}/suggestions/{itemId}', { token, itemId }),
        body,
      }),
      invalidatesTags: (_r, error, { token }) => (error ? [] : [{ type: 'Shared', id: token }, WISHLIST]),
    }),
    deleteSuggestion: build.mutation<void, { token: string; itemId: string }>({
      query: ({ token, itemId }) => apiRoute('DELETE', '/api/shared/{token}/suggestions/{itemId}', { token, itemId }),
      invalidatesTags: (_r, error, { token }) => (error ? [] : [{ type: 'Shared', id: token }, WISHLIST, CLAIMS]),
    }),
    // The caller's families as a list can use them: sharing with a family, and its people as a
    // list's recipient or co-manager (the families feature owns the rest of /api/families and the
    // same 'Families' tag).
    getFamilyChoices: build.query<FamilyChoice[], void>({
      query: () => apiRoute('GET', '/api/families'),
      transformResponse: (families: FamilyChoice[]) => families.map(({ id, name, members }) => ({ id, name, members })),
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
  useAddManagerMutation,
  useRemoveManagerMutation,
  useShareListMutation,
  useUnshareListMutation,
  useGetSharedListQuery,
  useClaimItemMutation,
  useReleaseClaimMutation,
  useSuggestGiftMutation,
  useEditSuggestionMutation,
  useDeleteSuggestionMutation,
  useGetClaimsQuery,
  useGetFamilyChoicesQuery,
} = familyListsApi;
