import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { inLanguage } from '../../../test/i18n';
import { json, mockFetch, renderWithProviders, signedIn, TEST_USER } from '../../../test/utils';
import type { Family } from '../types';
import FamilyPage from './FamilyPage';

const ME = TEST_USER.uid;

function smiths(): Family {
  return {
    id: 'fam-1',
    name: 'The Smiths',
    role: 'admin',
    drawOn: null,
    members: [
      { uid: ME, displayName: 'Holly', role: 'admin' },
      { uid: 'u-ben', displayName: 'Ben', role: 'member' },
    ],
    lists: [{ listId: 'l-ben', name: 'Christmas', ownerUid: 'u-ben', ownerName: 'Ben', token: 'tok-ben' }],
  };
}

/** GET /api/families/{id}/invites: what an admin's card lists as open. */
const isInvitesList = (call: { method: string; url: string }) => call.method === 'GET' && call.url.endsWith('/invites');

function render() {
  return renderWithProviders(<FamilyPage />, { path: '/family', preloadedState: signedIn() });
}

describe('the Family page /family', () => {
  it('shows members with roles and the lists they shared, opening the shared view', async () => {
    mockFetch((call) => json(isInvitesList(call) ? [] : [smiths()]));
    render();
    const card = await screen.findByRole('region', { name: 'The Smiths' });
    const members = within(card).getAllByTestId('family-member');
    expect(members.map((m) => m.textContent)).toEqual([expect.stringMatching(/Holly \(you\).*Admin/), expect.stringContaining('Ben')]);
    expect(within(card).getByRole('link', { name: /Christmas/ })).toHaveAttribute('href', '/l/tok-ben');
    expect(within(card).getByRole('link', { name: 'Secret Santa' })).toHaveAttribute('href', '/family/fam-1/secret-santa');
  });

  it('shows a list kept for someone under their name, with who keeps it', async () => {
    const family = smiths();
    family.lists = [
      ...family.lists,
      { listId: 'l-emma', name: 'Emma’s wishlist', ownerUid: ME, ownerName: 'Holly', token: 'tok-emma', recipientName: 'Emma', managedBy: ['Holly', 'Ben'] },
      { listId: 'l-gran', name: 'Birthday', ownerUid: ME, ownerName: 'Holly', token: 'tok-gran', recipientName: 'Grandpa', managedBy: ['Holly'] },
    ];
    mockFetch((call) => json(isInvitesList(call) ? [] : [family]));
    render();
    const card = await screen.findByRole('region', { name: 'The Smiths' });
    const rows = within(card).getAllByTestId('family-list');
    expect(rows.map((r) => r.textContent)).toEqual([
      'ChristmasBen',
      'Emma’s wishlist, kept by Holly and Ben',
      'Grandpa’s wishlist, kept by HollyBirthday',
    ]);
    expect(rows[1]).toHaveAttribute('href', '/l/tok-emma');
  });

  it("names Ben's default list after him and the caller's own as theirs, and shows what the app puts under each", async () => {
    const family = smiths();
    family.lists = [
      { listId: 'l-ben', name: 'My Wishlist', ownerUid: 'u-ben', ownerName: 'Ben', token: 'tok-ben' },
      { listId: 'l-me', name: 'My Wishlist', ownerUid: ME, ownerName: 'Holly', token: 'tok-me' },
    ];
    mockFetch((call) => json(isInvitesList(call) ? [] : [family]));
    renderWithProviders(<FamilyPage listExtra={(list) => <span>extra {list.token}</span>} />, { path: '/family', preloadedState: signedIn() });
    const card = await screen.findByRole('region', { name: 'The Smiths' });
    const rows = within(card).getAllByTestId('family-list');
    expect(rows.map((r) => r.textContent)).toEqual(["Ben's wishlistBenextra tok-ben", 'My WishlistYour listextra tok-me']);
  });

  it("lets an admin copy their own shared list with the family's new invitation link", async () => {
    const family = smiths();
    family.lists = [...family.lists, { listId: 'l-me', name: 'My Wishlist', ownerUid: ME, ownerName: 'Holly', token: 'tok-me' }];
    mockFetch((call) => {
      if (call.method === 'POST') return json({ token: 'inv-tok', url: '/join/inv-tok', expiresAt: '2026-12-05T00:00:00Z' });
      return json(isInvitesList(call) ? [] : [family]);
    });
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render();
    const card = await screen.findByRole('region', { name: 'The Smiths' });
    // Before a link is made there is no invitation to send a list with.
    expect(within(card).queryByTestId('copy-list-with-invite')).not.toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Make an invitation link' }));
    // Only the caller's own list is offered: Ben's is his to send.
    const copy = await within(card).findAllByTestId('copy-list-with-invite');
    expect(copy.map((b) => b.textContent)).toEqual(['Copy My Wishlist with the invitation']);
    await userEvent.click(copy[0]);
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/l/tok-me?join=inv-tok`);
  });

  it('removes a member only after asking', async () => {
    let family = smiths();
    const calls = mockFetch((call) => {
      if (call.method === 'DELETE') {
        family = { ...family, members: family.members.filter((m) => m.uid !== 'u-ben') };
        return json(null, 204);
      }
      return json(isInvitesList(call) ? [] : [family]);
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Ben' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Remove Ben?' })).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove Ben' })).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/families/fam-1/members/u-ben');
  });

  it('makes a member an admin', async () => {
    const calls = mockFetch((call) => json(call.method === 'PATCH' ? smiths() : isInvitesList(call) ? [] : [smiths()]));
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Make Ben an admin' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({ url: '/api/families/fam-1/members/u-ben', body: { role: 'admin' } }));
  });

  it('keeps the only admin from leaving while others remain', async () => {
    const calls = mockFetch((call) => json(isInvitesList(call) ? [] : [smiths()]));
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Leave The Smiths' }));
    const dialog = screen.getByRole('dialog', { name: 'Leave The Smiths?' });
    expect(dialog).toHaveTextContent('make someone else an admin first');
    expect(within(dialog).getByRole('button', { name: 'Leave' })).toBeDisabled();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it('makes an invitation link and sends one by email', async () => {
    const invite = { token: 'inv-1', url: '/join/inv-1', expiresAt: '2026-11-30T18:00:00Z' };
    const calls = mockFetch((call) =>
      json(call.method === 'POST' ? invite : isInvitesList(call) ? [] : [smiths()], call.method === 'POST' ? 201 : 200),
    );
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Make an invitation link' }));
    expect(await screen.findByLabelText('Invitation link')).toHaveValue(`${window.location.origin}/join/inv-1`);
    await userEvent.type(screen.getByLabelText('Invite by email'), 'cleo@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    // The email is written in the language the inviter sees the app in.
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{}, { email: 'cleo@example.com', language: 'en' }]);
    await waitFor(() => expect(screen.getByLabelText('Invite by email')).toHaveValue(''));
  });

  it('sends an invitation email in the language the inviter uses', async () => {
    await inLanguage('de');
    const invite = { token: 'inv-2', url: '/join/inv-2', expiresAt: '2026-11-30T18:00:00Z' };
    const calls = mockFetch((call) =>
      json(call.method === 'POST' ? invite : isInvitesList(call) ? [] : [smiths()], call.method === 'POST' ? 201 : 200),
    );
    render();
    const field = await screen.findByLabelText('Per E-Mail einladen');
    await userEvent.type(field, 'oma@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Einladung senden' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'oma@example.com', language: 'de' });
  });

  it('makes a new family and shows its first invitation link at once', async () => {
    let families: Family[] = [];
    mockFetch((call) => {
      if (call.method === 'POST') {
        families = [{ ...smiths(), id: 'fam-2', name: 'The Joneses', members: [smiths().members[0]], lists: [] }];
        return json({ id: 'fam-2', name: 'The Joneses', role: 'admin', invite: { token: 'first', url: '/join/first', expiresAt: '2026-11-30T18:00:00Z' } }, 201);
      }
      return json(isInvitesList(call) ? [] : families);
    });
    render();
    expect(await screen.findByText(/not in a family yet/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'New family' }));
    await userEvent.type(screen.getByLabelText('Family name'), 'The Joneses');
    await userEvent.click(screen.getByRole('button', { name: 'Create family' }));
    const card = await screen.findByRole('region', { name: 'The Joneses' });
    expect(within(card).getByLabelText('Invitation link')).toHaveValue(`${window.location.origin}/join/first`);
  });

  it('lists the open invitations and revokes one, which also ends the link shown', async () => {
    let open = [
      { id: 'h-link', email: null, invitedByName: 'Holly', createdAt: '2026-11-23T18:00:00Z', expiresAt: '2026-11-30T18:00:00Z' },
      { id: 'h-cleo', email: 'cleo@example.com', invitedByName: 'Holly', createdAt: '2026-11-22T18:00:00Z', expiresAt: '2026-11-29T18:00:00Z' },
    ];
    const invite = { token: 'inv-1', url: '/join/inv-1', expiresAt: '2026-11-30T18:00:00Z' };
    const calls = mockFetch((call) => {
      if (call.method === 'POST') return json(invite, 201);
      if (call.method === 'DELETE') {
        open = open.filter((i) => !call.url.endsWith(`/${i.id}`));
        return json(null, 204);
      }
      return json(isInvitesList(call) ? open : [smiths()]);
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Make an invitation link' }));
    expect(await screen.findByLabelText('Invitation link')).toBeInTheDocument();
    const items = await screen.findAllByTestId('open-invite');
    expect(items.map((i) => i.textContent)).toEqual([expect.stringContaining('Link for anyone'), expect.stringContaining('cleo@example.com')]);
    await userEvent.click(screen.getByRole('button', { name: 'Revoke the invitation: the link for anyone' }));
    await waitFor(() => expect(screen.getAllByTestId('open-invite')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/families/fam-1/invites/h-link');
    expect(screen.queryByLabelText('Invitation link')).not.toBeInTheDocument();
    expect(screen.getByTestId('open-invite')).toHaveTextContent('cleo@example.com');
  });
});
