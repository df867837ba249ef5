import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { takeRedirectAfterLogin } from '../../../lib/redirectAfterLogin';
import { json, mockFetch, renderWithProviders, signedIn, signedOut } from '../../../test/utils';
import JoinPage from './JoinPage';

const INFO = { familyName: 'The Smiths', invitedBy: 'Ann' };
const FAMILY = { id: 'fam-1', name: 'The Smiths', role: 'member', members: [], lists: [] };

function render(auth: ReturnType<typeof signedIn>) {
  return renderWithProviders(<JoinPage />, { path: '/join/:token', initialEntry: '/join/tok-123', preloadedState: auth });
}

describe('accepting an invitation /join/:token', () => {
  it('names the family and who invited; a visitor signs in first and is brought back here', async () => {
    const calls = mockFetch(() => json(INFO));
    render(signedOut());
    expect(await screen.findByRole('heading', { name: 'The Smiths' })).toBeInTheDocument();
    expect(screen.getByText('Ann invited you to join')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Sign in or sign up to join' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(takeRedirectAfterLogin()).toBe('/join/tok-123');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/invites/tok-123']);
  });

  it('joins a signed-in user and opens the Family page', async () => {
    const calls = mockFetch((call) => json(call.method === 'POST' ? FAMILY : INFO));
    render(signedIn());
    await userEvent.click(await screen.findByRole('button', { name: 'Join The Smiths' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/family'));
    expect(calls.at(-1)).toMatchObject({ method: 'POST', url: '/api/invites/tok-123/accept' });
  });

  it('says an expired or unknown invitation no longer works', async () => {
    mockFetch(() => json({ error: { code: 'invite_not_found', message: 'This invitation has expired or does not exist.' } }, 404));
    render(signedIn());
    expect(await screen.findByRole('heading', { name: 'This invitation no longer works' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Join/ })).not.toBeInTheDocument();
  });

  it('says plainly when an email invitation was meant for another address', async () => {
    mockFetch((call) =>
      call.method === 'POST'
        ? json({ error: { code: 'invite_for_someone_else', message: 'Failed to join the family: another address.' } }, 403)
        : json(INFO),
    );
    render(signedIn());
    await userEvent.click(await screen.findByRole('button', { name: 'Join The Smiths' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation was sent to another email address');
    expect(screen.getByRole('alert')).toHaveTextContent('not to holly@example.com');
    expect(screen.getByRole('button', { name: 'Join The Smiths' })).toBeInTheDocument();
  });
});
