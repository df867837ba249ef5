import { api } from '../../app/api';
import { apiRoute } from '../../lib/api/paths';
import { getAuthToken } from '../../lib/authToken';
import type { Account } from './types';

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAccount: build.query<Account, void>({
      query: () => apiRoute('GET', '/api/account'),
    }),
    deleteAccount: build.mutation<{ deletionPending: boolean }, string>({
      query: (confirm) => ({ ...apiRoute('DELETE', '/api/account'), body: { confirm } }),
    }),
  }),
});

export const { useGetAccountQuery, useDeleteAccountMutation } = accountApi;

/** Fetches the ZIP of the user's data and hands it to the browser as a download. */
export async function downloadMyData(): Promise<void> {
  const token = await getAuthToken();
  const { url: exportUrl, method } = apiRoute('GET', '/api/account/export');
  const res = await fetch(exportUrl, { method, headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new Error(`export answered ${res.status}`);
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = 'santa-wishlist-data.zip';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
