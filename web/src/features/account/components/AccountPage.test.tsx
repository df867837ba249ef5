import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderWithProviders, signedIn } from '../../../test/utils';
import { inLanguage } from '../../../test/i18n';
import AccountPage from './AccountPage';

const ACCOUNT = { uid: 'u1', email: 'dora@example.com', displayName: 'Dora', deletionPending: false };

describe('the Account screen /account', () => {
  it('deletes only once the email is typed, then signs out and says what was removed', async () => {
    const calls = mockFetch((call) => (call.method === 'DELETE' ? json({ deletionPending: true }, 202) : json(ACCOUNT)));
    const signOut = vi.fn(async () => {});
    renderWithProviders(<AccountPage onSignOut={signOut} />, { path: '/account', preloadedState: signedIn() });
    expect(await screen.findByText('Signed in as Dora (dora@example.com)')).toBeInTheDocument();
    const remove = screen.getByRole('button', { name: 'Delete my account' });
    expect(remove).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Type your email to confirm'), 'DORA@example.com');
    await userEvent.click(remove);
    expect(await screen.findByRole('heading', { name: 'Your account was deleted' })).toBeInTheDocument();
    expect(screen.getByText('Your notifications')).toBeInTheDocument();
    expect(signOut).toHaveBeenCalledOnce();
    const deletion = calls.find((c) => c.method === 'DELETE');
    expect(deletion?.url).toBe('/api/account');
    expect(deletion?.body).toEqual({ confirm: 'DORA@example.com' });
  });

  it('shows the server’s message when the deletion is refused, and stays signed in', async () => {
    mockFetch((call) =>
      call.method === 'DELETE'
        ? json({ error: { code: 'confirmation_mismatch', message: 'The confirmation does not match.' } }, 400)
        : json(ACCOUNT),
    );
    const signOut = vi.fn(async () => {});
    renderWithProviders(<AccountPage onSignOut={signOut} />, { path: '/account', preloadedState: signedIn() });
    await userEvent.type(await screen.findByLabelText('Type your email to confirm'), 'dora@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The confirmation does not match.'));
    expect(signOut).not.toHaveBeenCalled();
  });

  it('speaks German too', async () => {
    await inLanguage('de');
    mockFetch(() => json(ACCOUNT));
    renderWithProviders(<AccountPage onSignOut={async () => {}} />, { path: '/account', preloadedState: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Was wir speichern' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Meine Daten herunterladen' })).toBeInTheDocument();
  });
});
