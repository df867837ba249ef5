import { api } from '../../app/api';
import { apiRoute } from '../../lib/api/paths';
import type { BudgetDraft, BudgetEntry, GivenGift, GroupGift, StartGroupGift, ThanksResult } from './types';

const CLAIMS = { type: 'Claims' as const, id: 'ALL' };
const BUDGETS = { type: 'Budgets' as const, id: 'ALL' };
const GIVEN = { type: 'GiftsGiven' as const, id: 'ALL' };
const WISHLIST = { type: 'Wishlist' as const, id: 'LIST' };

/**
 * A pledge or a group gift changes the shared list (its item may now count as taken), the
 * caller's shopping list and their totals; a 409 means someone else was quicker, so read them
 * again either way.
 */
const afterGiving = (token: string) => [{ type: 'Shared' as const, id: token }, CLAIMS, BUDGETS];

type ItemRef = { token: string; itemId: string };

export const givingApi = api.injectEndpoints({
  endpoints: (build) => ({
    startGroupGift: build.mutation<{ groupGift: GroupGift }, ItemRef & StartGroupGift>({
      query: ({ token, itemId, ...body }) => ({ ...apiRoute('POST', '/api/shared/{token}/items/{itemId}/group-gift', { token, itemId }), body }),
      invalidatesTags: (_r, _e, { token }) => afterGiving(token),
    }),
    cancelGroupGift: build.mutation<void, ItemRef>({
      query: ({ token, itemId }) => apiRoute('DELETE', '/api/shared/{token}/items/{itemId}/group-gift', { token, itemId }),
      invalidatesTags: (_r, _e, { token }) => afterGiving(token),
    }),
    pledge: build.mutation<{ groupGift: GroupGift }, ItemRef & { amount: string }>({
      query: ({ token, itemId, amount }) => ({ ...apiRoute('PUT', '/api/shared/{token}/items/{itemId}/pledge', { token, itemId }), body: { amount } }),
      invalidatesTags: (_r, _e, { token }) => afterGiving(token),
    }),
    withdrawPledge: build.mutation<void, ItemRef>({
      query: ({ token, itemId }) => apiRoute('DELETE', '/api/shared/{token}/items/{itemId}/pledge', { token, itemId }),
      invalidatesTags: (_r, _e, { token }) => afterGiving(token),
    }),
    getBudgets: build.query<BudgetEntry[], void>({
      query: () => apiRoute('GET', '/api/budgets'),
      providesTags: [BUDGETS],
    }),
    setBudget: build.mutation<BudgetEntry, { key: string } & BudgetDraft>({
      query: ({ key, ...body }) => ({ ...apiRoute('PUT', '/api/budgets/{key}', { key }), body }),
      invalidatesTags: (_r, error) => (error ? [] : [BUDGETS]),
    }),
    deleteBudget: build.mutation<void, string>({
      query: (key) => apiRoute('DELETE', '/api/budgets/{key}', { key }),
      invalidatesTags: (_r, error) => (error ? [] : [BUDGETS]),
    }),
    sayThanks: build.mutation<ThanksResult, { itemId: string; message: string }>({
      query: ({ itemId, message }) => ({ ...apiRoute('POST', '/api/wishlist/{id}/thanks', { id: itemId }), body: { message } }),
      // The owner's items show who was thanked; a 409 means the list changed meanwhile.
      invalidatesTags: [WISHLIST],
    }),
    getGivenGifts: build.query<GivenGift[], void>({
      query: () => apiRoute('GET', '/api/gifts/given'),
      providesTags: [GIVEN],
    }),
  }),
});

export const {
  useStartGroupGiftMutation,
  useCancelGroupGiftMutation,
  usePledgeMutation,
  useWithdrawPledgeMutation,
  useGetBudgetsQuery,
  useSetBudgetMutation,
  useDeleteBudgetMutation,
  useSayThanksMutation,
  useGetGivenGiftsQuery,
} = givingApi;
