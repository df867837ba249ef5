import { getAuthToken } from './authToken';
import { apiRoute } from './api/paths';
import type { Language } from './i18n';

/**
 * Tells the notification service the language the user chose, so the emails it sends them are
 * written in it. Best effort: the settings screen sends it again when it opens.
 */
export function saveNotificationLanguage(language: Language): void {
  void (async () => {
    const token = await getAuthToken();
    if (!token) return;
    const { url, method } = apiRoute('PUT', '/api/notifications/preferences');
    await fetch(url, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ language }),
    });
  })().catch(() => undefined);
}
