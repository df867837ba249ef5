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

  it('speaks German, and tells the server the emails’ language', async () => {
    await inLanguage('de');
    const calls = mockFetch((call) => (call.method === 'PUT' ? json(settings(true, 'de')) : json(settings(true))));
    renderWithProviders(<NotificationSettingsPage />, { path: '/settings/notifications', preloadedState: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Benachrichtigungen' })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'E-Mail: Wichteln gezogen' })).toBeChecked();
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ language: 'de' }));
  });
});
