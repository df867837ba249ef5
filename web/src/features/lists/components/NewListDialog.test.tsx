import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderWithProviders, signedIn, TEST_USER } from '../../../test/utils';
import { aList, emmasList } from '../../../test/lists';
import { NewListDialog } from './NewListDialog';

const families = [
  {
    id: 'fam-1',
    name: 'The Smiths',
    role: 'admin',
    drawOn: null,
    members: [
      { uid: TEST_USER.uid, displayName: 'Holly Berry', role: 'admin' },
      { uid: 'u-teen', displayName: 'Tom', role: 'member' },
      { uid: 'u-ben', displayName: 'Ben', role: 'member' },
    ],
    lists: [],
  },
  {
    id: 'fam-2',
    name: 'Grandparents',
    role: 'member',
    drawOn: null,
    members: [
      { uid: 'u-ben', displayName: 'Ben', role: 'admin' },
      { uid: 'u-gran', displayName: 'Granny', role: 'member' },
    ],
    lists: [],
  },
];

function render() {
  const onCreated = vi.fn();
  renderWithProviders(<NewListDialog onCreated={onCreated} onCancel={vi.fn()} />, { preloadedState: signedIn() });
  return { onCreated, dialog: screen.getByRole('dialog', { name: 'New list' }) };
}

describe('New list: who it is for', () => {
  it('makes a list for someone without an account, leaving its name to the server', async () => {
    const calls = mockFetch(() => json(emmasList(), 201));
    const { onCreated, dialog } = render();
    await userEvent.click(within(dialog).getByRole('radio', { name: /Someone without an account/ }));
    expect(within(dialog).getByLabelText(/List name/)).toHaveAccessibleDescription(/called after them/);
    await userEvent.type(within(dialog).getByLabelText('Their name'), '  Emma ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create list' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(expect.objectContaining({ id: 'emma' })));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ recipient: { kind: 'person', name: 'Emma' } });
  });

  it('asks for the person’s name (1 to 40 characters) before asking the server', async () => {
    const calls = mockFetch(() => json(emmasList(), 201));
    const { dialog } = render();
    await userEvent.click(within(dialog).getByRole('radio', { name: /Someone without an account/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create list' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Their name must be 1 to 40 characters.');
    expect(within(dialog).getByLabelText('Their name')).toHaveAttribute('maxLength', '40');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('offers the people of all my families once each, not me, and sends the chosen uid', async () => {
    const calls = mockFetch((call) => (call.url === '/api/families' ? json(families) : json(aList({ id: 'tom', isDefault: false }), 201)));
    const { onCreated, dialog } = render();
    await userEvent.click(within(dialog).getByRole('radio', { name: /Someone in my family/ }));
    const select = within(dialog).getByLabelText('Family member');
    await waitFor(() => expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose someone', 'Ben', 'Granny', 'Tom']));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create list' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Choose the family member this list is for.');
    await userEvent.selectOptions(select, 'u-teen');
    await userEvent.type(within(dialog).getByLabelText(/List name/), 'Christmas');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create list' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Christmas', recipient: { kind: 'member', uid: 'u-teen' } });
  });

  it('shows the server refusing the recipient under the field (someone who shares no family)', async () => {
    const message = 'You can only make a list for someone in one of your families.';
    mockFetch((call) =>
      call.url === '/api/families'
        ? json(families)
        : json({ error: { code: 'validation_failed', message: 'Invalid', fields: { recipient: message } } }, 422),
    );
    const { onCreated, dialog } = render();
    await userEvent.click(within(dialog).getByRole('radio', { name: /Someone in my family/ }));
    await within(dialog).findByRole('option', { name: 'Granny' });
    await userEvent.selectOptions(within(dialog).getByLabelText('Family member'), 'u-gran');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create list' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(within(dialog).getByLabelText('Family member')).toHaveAttribute('aria-invalid', 'true');
    expect(onCreated).not.toHaveBeenCalled();
  });

  it('says so when there is nobody in my families yet', async () => {
    mockFetch(() => json([]));
    const { dialog } = render();
    await userEvent.click(within(dialog).getByRole('radio', { name: /Someone in my family/ }));
    expect(await within(dialog).findByText('Nobody else is in your families yet.')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Go to Family' })).toHaveAttribute('href', '/family');
  });
});
