import { api } from '../../app/api';
import type { BudgetDraft, BudgetEntry, GivenGift, GroupGift, StartGroupGift, ThanksResult } from './types';

const CLAIMS = { type: 'Claims' as const, id: 'ALL' };
const BUDGETS = { type: 'Budgets' as const, id: 'ALL' };
const GIVEN = { type: 'GiftsGiven' as const, id: 'ALL' };
const WISHLIST = { type: 'Wishlist' as const, id: 'LIST' };

const enc = encodeURIComponent;
const groupGiftUrl = (token: string, itemId: string) => `/api/shared/${enc(token)}/items/${enc(itemId)}/group-gift`;
const pledgeUrl = (token: string, itemId: string) => `/api/shared/${enc(token)}/items/${enc(itemId)}/pledge`;

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
      query: ({ token, itemId, ...body }) => ({ url: groupGiftUrl(token, itemId), method: 'POST', body }),
      invalidatesTags: (_r, _e, { token }) => afterGiving(token),
    }),
    cancelGroupGift: build.mutation<void, ItemRef>({
      query: ({ token, itemId }) => ({ url: groupGiftUrl(token, itemId), method: 'DELETE' }),
      invalidatesTags: (_r, _e, { token }) => afterGiving(token),
    }),
    pledge: build.mutation<{ groupGift: GroupGift }, ItemRef & { amount: string }>({
      query: ({ token, itemId, amount }) => ({ url: pledgeUrl(token, itemId), method: 'PUT', body: { amount } }),
      invalidatesTags: (_r, _e, { token }) => afterGiving(token),
    }),
    withdrawPledge: build.mutation<void, ItemRef>({
      query: ({ token, itemId }) => ({ url: pledgeUrl(token, itemId), method: 'DELETE' }),
      invalidatesTags: (_r, _e, { token }) => afterGiving(token),
    }),
    getBudgets: build.query<BudgetEntry[], void>({
      query: () => '/api/budgets',
      providesTags: [BUDGETS],
    }),
    setBudget: build.mutation<BudgetEntry, { key: string } & BudgetDraft>({
      query: ({ key, ...body }) => ({ url: `/api/budgets/${enc(key)}`, method: 'PUT', body }),
      invalidatesTags: (_r, error) => (error ? [] : [BUDGETS]),
    }),
    deleteBudget: build.mutation<void, string>({
      query: (key) => ({ url: `/api/budgets/${enc(key)}`, method: 'DELETE' }),
      invalidatesTags: (_r, error) => (error ? [] : [BUDGETS]),
    }),
    sayThanks: build.mutation<ThanksResult, { itemId: string; message: string }>({
      query: ({ itemId, message }) => ({ url: `/api/wishlist/${enc(itemId)}/thanks`, method: 'POST', body: { message } }),
      // The owner's items show who was thanked; a 409 means the list changed meanwhile.
      invalidatesTags: [WISHLIST],
    }),
    getGivenGifts: build.query<GivenGift[], void>({
      query: () => '/api/gifts/given',
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
