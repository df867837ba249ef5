import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderWithProviders, signedIn } from '../../../test/utils';
import { inLanguage } from '../../../test/i18n';
import type { NotificationSettings } from '../types';
import NotificationSettingsPage from './NotificationSettingsPage';

function settings(emailListChanged: boolean, language: NotificationSettings['language'] = 'en'): NotificationSettings {
  return {
    language,
    preferences: [
      { kind: 'secretsanta.drawn', channel: 'push', enabled: true, digest: false },
      { kind: 'secretsanta.drawn', channel: 'email', enabled: true, digest: false },
      { kind: 'list.changed', channel: 'push', enabled: true, digest: false },
      { kind: 'list.changed', channel: 'email', enabled: emailListChanged, digest: true },
    ],
  };
}

describe('the notification settings /settings/notifications', () => {
  it('shows a switch per kind and channel and saves a flip, with the app language', async () => {
    const calls = mockFetch((call) => (call.method === 'PUT' ? json(settings(false)) : json(settings(true))));
    renderWithProviders(<NotificationSettingsPage />, { path: '/settings/notifications', preloadedState: signedIn() });
    const email = await screen.findByRole('switch', { name: 'Email: A list you follow changed' });
    expect(email).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Push: Secret Santa drawn' })).toBeChecked();
    expect(screen.getByText('(collected)')).toBeInTheDocument();
    await userEvent.click(email);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Email: A list you follow changed' })).not.toBeChecked());
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/api/notifications/preferences');
    expect(put?.body).toEqual({ language: 'en', preferences: [{ kind: 'list.changed', channel: 'email', enabled: false }] });
  });

  it.each([
    ['en', 'Push: Thanks for a gift you gave', 'Email: A group gift is complete'],
    ['de', 'Push: Dank für ein Geschenk von dir', 'E-Mail: Ein gemeinsames Geschenk ist komplett'],
    ['fr', 'Push : Un merci pour un cadeau offert', 'E-mail : Un cadeau commun est complet'],
    ['es', 'Push: Gracias por un regalo que hiciste', 'Correo: Un regalo conjunto está completo'],
  ] as const)('names the thanks and the complete group gift in %s', async (language, thanks, groupGift) => {
    await inLanguage(language);
    mockFetch(() =>
      json({
        language,
        preferences: [
          { kind: 'groupgift.complete', channel: 'push', enabled: true, digest: false },
          { kind: 'groupgift.complete', channel: 'email', enabled: false, digest: true },
          { kind: 'gift.thank_you', channel: 'push', enabled: true, digest: false },
          { kind: 'gift.thank_you', channel: 'email', enabled: true, digest: true },
        ],
      } satisfies NotificationSettings),
    );
    renderWithProviders(<NotificationSettingsPage />, { path: '/settings/notifications', preloadedState: signedIn() });
    expect(await screen.findByRole('switch', { name: thanks })).toBeChecked();
    expect(screen.getByRole('switch', { name: groupGift })).not.toBeChecked();
  });

  it('speaks German, and tells the server the emails’ language', async () => {
    await inLanguage('de');
    const calls = mockFetch((call) => (call.method === 'PUT' ? json(settings(true, 'de')) : json(settings(true))));
    renderWithProviders(<NotificationSettingsPage />, { path: '/settings/notifications', preloadedState: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Benachrichtigungen' })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'E-Mail: Wichteln gezogen' })).toBeChecked();
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ language: 'de' }));
  });
});
