import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderWithProviders, signedIn, TEST_USER } from '../../../test/utils';
import { aList, emmasList } from '../../../test/lists';
import type { WishList } from '../types';
import { ListSettingsDialog } from './ListSettingsDialog';

const family = {
  id: 'fam-1',
  name: 'The Smiths',
  role: 'admin',
  drawOn: null,
  members: [
    { uid: TEST_USER.uid, displayName: 'Holly Berry', role: 'admin' },
    { uid: 'u-ben', displayName: 'Ben', role: 'member' },
    { uid: 'u-gran', displayName: 'Granny', role: 'member' },
    { uid: 'u-tom', displayName: 'Tom', role: 'member' },
  ],
  lists: [],
};

const conflict = (code: string, message: string) => json({ error: { code, message } }, 409);

function render(list: WishList, onLeft = vi.fn()) {
  renderWithProviders(<ListSettingsDialog list={list} onClose={vi.fn()} onLeft={onLeft} />, { preloadedState: signedIn() });
  return { onLeft };
}

describe('settings of a list kept for someone else', () => {
  it('shows whom it is for and who keeps it, and adds a co-manager from the family', async () => {
    const calls = mockFetch((call) => {
      if (call.url === '/api/families') return json([family]);
      if (call.method === 'POST') return json({ managers: [...emmasList().managers, { uid: 'u-gran', displayName: 'Granny' }] }, 201);
      return json([emmasList()]);
    });
    render(emmasList());
    const dialog = screen.getByRole('dialog', { name: 'Emma’s wishlist: settings' });
    expect(within(dialog).getByTestId('list-recipient')).toHaveTextContent('For Emma (no account)');
    const keepers = within(dialog).getByRole('region', { name: 'Kept by' });
    expect(within(keepers).getAllByTestId('list-manager').map((m) => m.firstChild?.textContent)).toEqual(['Holly Berry (you)', 'Ben']);
    const add = await within(keepers).findByLabelText('Add a co-manager');
    // Those who keep it already are not offered.
    await waitFor(() => expect(within(add).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose a family member', 'Granny', 'Tom']));
    await userEvent.selectOptions(add, 'u-gran');
    await userEvent.click(within(keepers).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')).toMatchObject({ url: '/api/lists/emma/managers', body: { uid: 'u-gran' } }));
  });

  it('offers no more co-managers once five keep the list', async () => {
    mockFetch((call) => json(call.url === '/api/families' ? [family] : []));
    const five = ['a', 'b', 'c', 'd'].map((x) => ({ uid: `u-${x}`, displayName: x.toUpperCase() }));
    render(emmasList({ managers: [{ uid: TEST_USER.uid, displayName: 'Holly Berry' }, ...five] }));
    expect(await screen.findByText('A list has at most 5 keepers.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Add a co-manager')).not.toBeInTheDocument();
  });

  it('removes a co-manager, and shows the server’s refusal when the last keeper tries to leave', async () => {
    const last = 'You are the last manager of this list: add someone before you leave.';
    const calls = mockFetch((call) => {
      if (call.method === 'DELETE' && call.url.endsWith('/u-ben')) return json(null, 204);
      if (call.method === 'DELETE') return conflict('last_manager', last);
      return json(call.url === '/api/families' ? [family] : [emmasList()]);
    });
    const { onLeft } = render(emmasList());
    const keepers = screen.getByRole('region', { name: 'Kept by' });
    await userEvent.click(within(keepers).getByRole('button', { name: 'Remove Ben' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/lists/emma/managers/u-ben')).toBe(true));
    await userEvent.click(within(keepers).getByRole('button', { name: 'Leave' }));
    expect(await within(keepers).findByRole('alert')).toHaveTextContent(last);
    expect(calls.at(-1)?.url).toBe(`/api/lists/emma/managers/${TEST_USER.uid}`);
    expect(onLeft).not.toHaveBeenCalled();
  });

  it('leaves the list and hands back to the caller', async () => {
    mockFetch((call) => (call.method === 'DELETE' ? json(null, 204) : json(call.url === '/api/families' ? [family] : [emmasList()])));
    const { onLeft } = render(emmasList());
    await userEvent.click(within(screen.getByRole('region', { name: 'Kept by' })).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(onLeft).toHaveBeenCalled());
  });

  it('shows the server’s words for a recipient who cannot keep the list, and for a self list', async () => {
    let answer = conflict('recipient_cannot_manage', 'The person a list is for cannot manage it.');
    mockFetch((call) => (call.method === 'POST' ? answer : json(call.url === '/api/families' ? [family] : [])));
    render(emmasList());
    const keepers = screen.getByRole('region', { name: 'Kept by' });
    await within(keepers).findByRole('option', { name: 'Tom' });
    await userEvent.selectOptions(within(keepers).getByLabelText('Add a co-manager'), 'u-tom');
    await userEvent.click(within(keepers).getByRole('button', { name: 'Add' }));
    expect(await within(keepers).findByRole('alert')).toHaveTextContent('The person a list is for cannot manage it.');
    answer = conflict('own_list', 'This is your own list.');
    await userEvent.click(within(keepers).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(within(keepers).getByRole('alert')).toHaveTextContent('A list of your own has no co-managers.'));
  });

  it('hands a list for a person over to their new account', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const calls = mockFetch((call) =>
      call.method === 'PATCH'
        ? json(emmasList({ recipient: { kind: 'member', uid: 'u-tom', displayName: 'Tom' } }))
        : json(call.url === '/api/families' ? [family] : [emmasList()]),
    );
    render(emmasList());
    const handOver = screen.getByRole('region', { name: 'Hand over' });
    await within(handOver).findByRole('option', { name: 'Tom' });
    // Managers are not offered: the list is for someone else.
    expect(within(handOver).queryByRole('option', { name: 'Ben' })).not.toBeInTheDocument();
    await userEvent.selectOptions(within(handOver).getByLabelText('Emma’s account'), 'u-tom');
    await userEvent.click(within(handOver).getByRole('button', { name: 'Hand over to Tom' }));
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining('Emma’s list over to Tom'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({ url: '/api/lists/emma', body: { recipient: { kind: 'member', uid: 'u-tom' } } }));
    confirm.mockRestore();
  });

  it('offers no hand-over for a list already kept for a family member', () => {
    mockFetch(() => json([family]));
    render(emmasList({ recipient: { kind: 'member', uid: 'u-tom', displayName: 'Tom' } }));
    expect(screen.getByTestId('list-recipient')).toHaveTextContent('For Tom');
    expect(screen.queryByRole('region', { name: 'Hand over' })).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Kept by' })).toBeInTheDocument();
  });

  it('shows a list made for me exactly as my own list: no recipient, no keepers, no hand-over', () => {
    mockFetch(() => json([family]));
    const mine = aList({
      id: 'teen',
      name: 'Christmas',
      isDefault: false,
      role: 'recipient',
      recipient: { kind: 'member', uid: TEST_USER.uid, displayName: 'Holly Berry' },
      managers: [{ uid: 'u-ben', displayName: 'Ben' }],
    });
    render(mine);
    const dialog = screen.getByRole('dialog', { name: 'Christmas: sharing' });
    expect(within(dialog).queryByTestId('list-recipient')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('region', { name: 'Kept by' })).not.toBeInTheDocument();
    expect(dialog).not.toHaveTextContent('Ben');
  });
});
