import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SESSION_KEYS } from '../../../lib/storage';
import { json, mockFetch, renderWithProviders, signedIn, signedOut } from '../../../test/utils';
import { JoinOffer } from './JoinOffer';

const INFO = { familyName: 'The Millers', invitedBy: 'Ann' };

function render(state = signedIn()) {
  return renderWithProviders(<JoinOffer token="inv-tok" />, { path: '/l/:token', initialEntry: '/l/tok-ann?join=inv-tok', preloadedState: state });
}

describe('the offer to join the family on a shared list', () => {
  it('names the family and who sent it, and joins with the invitation', async () => {
    const calls = mockFetch((call) =>
      call.method === 'POST' ? json({ id: 'fam-1', name: 'The Millers', role: 'member', members: [], lists: [], drawOn: null }) : json(INFO),
    );
    render();
    const offer = await screen.findByRole('complementary', { name: 'Join The Millers' });
    expect(offer).toHaveTextContent('Ann sent this list with an invitation to The Millers');
    await userEvent.click(screen.getByRole('button', { name: 'Join The Millers' }));
    expect(await screen.findByRole('link', { name: "See the family's lists" })).toHaveAttribute('href', '/family');
    expect(screen.getByRole('complementary', { name: 'Welcome to The Millers' })).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/invites/inv-tok', 'POST /api/invites/inv-tok/accept']);
  });

  it('asks a visitor to sign in and brings them back to the list with the offer', async () => {
    mockFetch(() => json(INFO));
    render(signedOut());
    await userEvent.click(await screen.findByRole('link', { name: 'Sign in or sign up to join' }));
    expect(sessionStorage.getItem(SESSION_KEYS.redirectAfterLogin)).toBe('/l/tok-ann?join=inv-tok');
  });

  it('offers nothing when the invitation no longer works', async () => {
    const calls = mockFetch(() => json({ error: { code: 'invite_not_found', message: 'Invitation not found.' } }, 404));
    const { store } = render();
    // The 404 has arrived (the query failed), and nothing is offered.
    await vi.waitFor(() => expect(Object.values(store.getState().api.queries).some((q) => q?.status === 'rejected')).toBe(true));
    expect(calls).toHaveLength(1);
    expect(screen.queryByTestId('join-offer')).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/Join|Millers/);
  });
});
