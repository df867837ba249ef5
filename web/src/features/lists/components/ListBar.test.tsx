import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderWithProviders, signedIn } from '../../../test/utils';
import { aList } from '../../../test/lists';
import { ListBar } from './ListBar';
import { earliestRevealDate } from './ListSettingsDialog';

const list = aList;

describe('list bar on My Wishlist', () => {
  it('switches lists and makes a new one, which it then selects', async () => {
    let lists = [list({}), list({ id: 'b', name: 'Birthday', isDefault: false, itemCount: 0 })];
    const calls = mockFetch((call) => {
      if (call.method === 'POST') {
        const made = list({ id: 'c', name: 'Easter', isDefault: false, itemCount: 0 });
        lists = [...lists, made];
        return json(made, 201);
      }
      return json(lists);
    });
    const onSelect = vi.fn();
    renderWithProviders(<ListBar onSelect={onSelect} />, { preloadedState: signedIn() });
    const select = await screen.findByRole('combobox', { name: 'List' });
    expect(select).toHaveValue('default');
    await userEvent.selectOptions(select, 'b');
    expect(onSelect).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'b', name: 'Birthday' }));

    await userEvent.click(screen.getByRole('button', { name: 'New list' }));
    const dialog = screen.getByRole('dialog', { name: 'New list' });
    await userEvent.type(within(dialog).getByLabelText('List name'), 'Easter');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create list' }));
    await waitFor(() => expect(onSelect).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'c' })));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Easter' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByRole('option', { name: 'Easter (0)' })).toBeInTheDocument();
  });

  it('shows the server message for a bad list name', async () => {
    mockFetch((call) =>
      call.method === 'POST'
        ? json({ error: { code: 'validation_failed', message: 'Invalid', fields: { name: 'List name must be 1 to 60 characters.' } } }, 422)
        : json([list({})]),
    );
    renderWithProviders(<ListBar onSelect={vi.fn()} />, { preloadedState: signedIn() });
    await userEvent.click(await screen.findByRole('button', { name: 'New list' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create list' }));
    expect(await screen.findByText('List name must be 1 to 60 characters.')).toBeInTheDocument();
  });

  it('makes, copies, replaces and turns off the share link, and saves the reveal date', async () => {
    let current = list({});
    const calls = mockFetch((call) => {
      if (call.url === '/api/lists/default/share' && call.method === 'POST') {
        const token = current.share ? 'tok2' : 'tok1';
        current = { ...current, share: { token, url: `/l/${token}` } };
        return json(current.share);
      }
      if (call.url === '/api/lists/default/share' && call.method === 'DELETE') {
        current = { ...current, share: null };
        return json(null, 204);
      }
      if (call.method === 'PATCH') {
        current = { ...current, revealAt: (call.body as { revealAt: string }).revealAt };
        return json(current);
      }
      return json([current]);
    });
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<ListBar onSelect={vi.fn()} />, { preloadedState: signedIn() });
    await userEvent.click(await screen.findByRole('button', { name: 'Share' }));
    const dialog = screen.getByRole('dialog', { name: 'My Wishlist: sharing' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make a share link' }));
    const link = await within(dialog).findByLabelText(/Anyone with this link/);
    expect(link).toHaveValue(`${window.location.origin}/l/tok1`);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/l/tok1`);
    await userEvent.click(within(dialog).getByRole('button', { name: 'New link' }));
    await waitFor(() => expect(within(dialog).getByLabelText(/Anyone with this link/)).toHaveValue(`${window.location.origin}/l/tok2`));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off link' }));
    expect(await within(dialog).findByRole('button', { name: 'Make a share link' })).toBeInTheDocument();

    const date = within(dialog).getByLabelText('From this day you see who gave what');
    expect(date).toHaveValue('2026-12-26');
    await userEvent.clear(date);
    await userEvent.type(date, '2099-12-24');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save date' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ revealAt: '2099-12-24T00:00:00Z' }));
  });

  it('offers no past reveal date and shows the server refusing one on the field', async () => {
    const message = 'The reveal date must be in the future.';
    const calls = mockFetch((call) =>
      call.method === 'PATCH'
        ? json({ error: { code: 'validation_failed', message: 'Invalid', fields: { revealAt: message } } }, 422)
        : json([list({ revealAt: '2099-12-26T00:00:00Z' })]),
    );
    renderWithProviders(<ListBar onSelect={vi.fn()} />, { preloadedState: signedIn() });
    await userEvent.click(await screen.findByRole('button', { name: 'Share' }));
    const dialog = screen.getByRole('dialog', { name: 'My Wishlist: sharing' });
    const date = within(dialog).getByLabelText('From this day you see who gave what');
    expect(date).toHaveAttribute('min', earliestRevealDate());
    // The server has the last word (the clock may differ): its 422 lands under the date.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save date' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(date).toHaveAttribute('aria-invalid', 'true');
    expect(date).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1);
    await userEvent.clear(date);
    await userEvent.type(date, '2099-12-24');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(date).toHaveAttribute('aria-invalid', 'false');
  });

  it('earliestRevealDate is tomorrow in UTC, whatever the hour', () => {
    expect(earliestRevealDate(new Date('2026-11-25T00:00:00Z'))).toBe('2026-11-26');
    expect(earliestRevealDate(new Date('2026-12-31T23:59:00Z'))).toBe('2027-01-01');
  });

  it('shares the list with the families the owner ticks', async () => {
    let current = list({ familyIds: ['fam-a'] });
    const calls = mockFetch((call) => {
      if (call.url === '/api/families') {
        return json([
          { id: 'fam-a', name: 'The Smiths', role: 'admin', members: [], lists: [] },
          { id: 'fam-b', name: 'Work friends', role: 'member', members: [], lists: [] },
        ]);
      }
      if (call.method === 'PATCH') {
        current = { ...current, familyIds: (call.body as { familyIds: string[] }).familyIds };
        return json(current);
      }
      return json([current]);
    });
    renderWithProviders(<ListBar onSelect={vi.fn()} />, { preloadedState: signedIn() });
    await userEvent.click(await screen.findByRole('button', { name: 'Share' }));
    const dialog = screen.getByRole('dialog', { name: 'My Wishlist: sharing' });
    const smiths = await within(dialog).findByRole('checkbox', { name: 'The Smiths' });
    const work = within(dialog).getByRole('checkbox', { name: 'Work friends' });
    expect(smiths).toBeChecked();
    expect(work).not.toBeChecked();
    await userEvent.click(work);
    await waitFor(() => expect(within(dialog).getByRole('checkbox', { name: 'Work friends' })).toBeChecked());
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({ url: '/api/lists/default', body: { familyIds: ['fam-a', 'fam-b'] } });
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'The Smiths' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH').at(-1)?.body).toEqual({ familyIds: ['fam-b'] }));
  });

  it('keeps my lists (and the one made for me) apart from the lists I keep for others', async () => {
    const teen = list({ id: 'teen', name: 'Christmas', isDefault: false, role: 'recipient', recipient: { kind: 'member', uid: 'uid-123', displayName: 'Holly' } });
    const emma = list({ id: 'emma', name: 'Emma’s wishlist', isDefault: false, role: 'manager', recipient: { kind: 'person', name: 'Emma' } });
    mockFetch(() => json([list({}), teen, emma]));
    const onSelect = vi.fn();
    renderWithProviders(<ListBar onSelect={onSelect} />, { preloadedState: signedIn() });
    const select = await screen.findByRole('combobox', { name: 'List' });
    const groups = within(select).getAllByRole('group');
    expect(groups.map((g) => g.getAttribute('label'))).toEqual(['My lists', 'Lists I keep for others']);
    expect(within(groups[0]).getAllByRole('option').map((o) => o.textContent)).toEqual(['My Wishlist (2)', 'Christmas (2)']);
    expect(within(groups[1]).getAllByRole('option').map((o) => o.textContent)).toEqual(['Emma’s wishlist (2)']);
    // My own list's button is about sharing; a kept list's has its keepers and the hand-over too.
    expect(screen.getByRole('button', { name: 'Share' })).toBeInTheDocument();
    expect(screen.queryByTestId('kept-no-link')).not.toBeInTheDocument();
  });

  it('offers a kept list its settings, and says a link is needed to claim from it', async () => {
    const emma = list({ id: 'emma', name: 'Emma’s wishlist', isDefault: false, role: 'manager', recipient: { kind: 'person', name: 'Emma' } });
    mockFetch((call) => json(call.url === '/api/families' ? [] : [list({}), emma]));
    renderWithProviders(<ListBar selectedId="emma" onSelect={vi.fn()} />, { preloadedState: signedIn() });
    expect(await screen.findByTestId('kept-no-link')).toHaveTextContent('make its share link in Settings');
    await userEvent.click(screen.getByRole('button', { name: 'Settings' }));
    expect(screen.getByRole('dialog', { name: 'Emma’s wishlist: settings' })).toBeInTheDocument();
  });

  it('shows a plain list of lists when I keep none for others', async () => {
    mockFetch(() => json([list({}), list({ id: 'b', name: 'Birthday', isDefault: false })]));
    renderWithProviders(<ListBar onSelect={vi.fn()} />, { preloadedState: signedIn() });
    const select = await screen.findByRole('combobox', { name: 'List' });
    expect(within(select).queryAllByRole('group')).toHaveLength(0);
    expect(within(select).getAllByRole('option')).toHaveLength(2);
  });
});
