import { api } from '../../app/api';
import { apiRoute } from '../../lib/api/paths';
import type { NotificationLanguage, NotificationPreference, NotificationSettings, Unsubscribed } from './types';

export interface SettingsChange {
  language?: NotificationLanguage;
  preferences?: NotificationPreference[];
}

export const notificationSettingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getNotificationSettings: build.query<NotificationSettings, void>({
      query: () => apiRoute('GET', '/api/notifications/preferences'),
    }),
    updateNotificationSettings: build.mutation<NotificationSettings, SettingsChange>({
      query: (body) => ({ ...apiRoute('PUT', '/api/notifications/preferences'), body }),
      // The answer is the whole settings after the change: it becomes the screen's data.
      async onQueryStarted(_change, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled;
        dispatch(notificationSettingsApi.util.upsertQueryData('getNotificationSettings', undefined, data));
      },
    }),
  }),
});

export const { useGetNotificationSettingsQuery, useUpdateNotificationSettingsMutation } = notificationSettingsApi;

/** The one-click body of RFC 8058, which the page sends as a mail program would. */
const ONE_CLICK = 'List-Unsubscribe=One-Click';

/** What an unsubscribe link stops; null for an unknown link. Changes nothing. */
export async function describeUnsubscribe(token: string): Promise<Unsubscribed | null> {
  const { url, method } = apiRoute('GET', '/api/unsubscribe/{token}', { token });
  const res = await fetch(url, { method, headers: { Accept: 'application/json' } });
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`unsubscribe answered ${res.status}`);
  return (await res.json()) as Unsubscribed;
}

/** Unsubscribes, with no sign-in: the link's token says what. null for an unknown link. */
export async function unsubscribe(token: string): Promise<Unsubscribed | null> {
  const { url, method } = apiRoute('POST', '/api/unsubscribe/{token}', { token });
  const res = await fetch(url, {
    method,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: ONE_CLICK,
  });
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`unsubscribe answered ${res.status}`);
  return (await res.json()) as Unsubscribed;
}
