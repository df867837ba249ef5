import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { anItem } from '../../../test/items';
import { emmasList } from '../../../test/lists';
import { json, mockFetch, renderWithProviders, signedIn, type FetchCall } from '../../../test/utils';
import type { SharedItem, SharedList, WishList } from '../types';
import SharedListPage from './SharedListPage';

const TOKEN = 'tok_emma';

function item(over: Partial<SharedItem>): SharedItem {
  return { ...anItem({ id: 'i1', name: 'Drum', listId: 'emma' }), claimed: 0, mine: 0, ...over };
}

const kite = item({ id: 'kite', name: 'Kite', suggested: true, suggestedBy: { displayName: 'Granny', mine: false } });
const puzzle = item({ id: 'puzzle', name: 'Puzzle', suggested: true, suggestedBy: { displayName: 'Aunt Ann', mine: true } });
const drum = item({ claimed: 1, claims: [{ displayName: 'Aunt Ann', quantity: 1, purchased: true, revealedAt: '2026-12-26T00:00:00Z' }] });

function emmas(viewer: SharedList['viewer'], items: SharedItem[]): SharedList {
  return {
    viewer,
    list: { id: 'emma', name: 'Christmas', ownerName: 'Holly', recipient: { kind: 'person', name: 'Emma' }, managedBy: ['Holly', 'Ben'] },
    items,
  };
}

function serve(list: SharedList, myLists: WishList[] = [], more?: (call: FetchCall) => Response | undefined) {
  return mockFetch((call) => more?.(call) ?? (call.url === '/api/lists' ? json(myLists) : json(list)));
}

function renderPage() {
  return renderWithProviders(<SharedListPage />, { path: '/l/:token', initialEntry: `/l/${TOKEN}`, preloadedState: signedIn() });
}

const card = async (name: string) => (await screen.findAllByTestId('shared-item')).find((c) => within(c).queryByRole('heading', { name }))!;

describe('suggestions and keepers on a shared list', () => {
  it('names the recipient and who keeps the list, and marks suggestions with who made them', async () => {
    serve(emmas('member', [kite, puzzle]));
    renderPage();
    expect(await screen.findByTestId('shared-whose')).toHaveTextContent('Emma’s wishlist, kept by Holly and Ben');
    expect(within(await card('Kite')).getByTestId('suggested-by')).toHaveTextContent('Suggested by Granny');
    expect(within(await card('Puzzle')).getByTestId('suggested-by')).toHaveTextContent('Suggested by you');
    // A giver may change only their own suggestion.
    expect(within(await card('Kite')).queryByRole('button', { name: 'Edit Kite' })).not.toBeInTheDocument();
    expect(within(await card('Puzzle')).getByRole('button', { name: 'Edit Puzzle' })).toBeInTheDocument();
  });

  it('suggests a gift with the form, posting to the list’s suggestions', async () => {
    const calls = serve(emmas('member', []), [], (call) => (call.method === 'POST' ? json(kite, 201) : undefined));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Suggest a gift' }));
    const dialog = screen.getByRole('dialog', { name: 'Suggest a gift for Emma' });
    expect(dialog).toHaveTextContent('Emma never sees suggestions');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suggest' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Name the gift.');
    await userEvent.type(within(dialog).getByLabelText('Gift'), 'Kite');
    await userEvent.type(within(dialog).getByLabelText(/Price/), '$15');
    await userEvent.type(within(dialog).getByLabelText(/Shop link/), 'https://shop.example/kite');
    await userEvent.type(within(dialog).getByLabelText(/Notes/), 'red');
    await userEvent.clear(within(dialog).getByLabelText('How many'));
    await userEvent.type(within(dialog).getByLabelText('How many'), '2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suggest' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: `/api/shared/${TOKEN}/suggestions`,
      body: { name: 'Kite', price: '$15', shoppingUrl: 'https://shop.example/kite', notes: 'red', quantity: 2 },
    });
  });

  it('shows the server’s field messages and limits in the form', async () => {
    serve(emmas('member', []), [], (call) =>
      call.method === 'POST'
        ? json({ error: { code: 'too_many_suggestions', message: 'This list has 50 suggestions already.' } }, 409)
        : undefined,
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Suggest a gift' }));
    const dialog = screen.getByRole('dialog', { name: 'Suggest a gift for Emma' });
    await userEvent.type(within(dialog).getByLabelText('Gift'), 'Kite');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suggest' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This list has 50 suggestions already.');
  });

  it('lets the suggester edit and delete their suggestion', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const calls = serve(emmas('member', [puzzle]), [], (call) =>
      call.method === 'PATCH' ? json(puzzle) : call.method === 'DELETE' ? json(null, 204) : undefined,
    );
    renderPage();
    await userEvent.click(within(await card('Puzzle')).getByRole('button', { name: 'Edit Puzzle' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Puzzle' });
    const name = within(dialog).getByLabelText('Gift');
    expect(name).toHaveValue('Puzzle');
    await userEvent.clear(name);
    await userEvent.type(name, 'Big puzzle');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({ url: `/api/shared/${TOKEN}/suggestions/puzzle`, body: { name: 'Big puzzle' } }));
    await userEvent.click(within(await card('Puzzle')).getByRole('button', { name: 'Delete Puzzle' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.url).toBe(`/api/shared/${TOKEN}/suggestions/puzzle`));
    confirm.mockRestore();
  });

  it('lets a manager edit anyone’s suggestion and shows them who is getting what', async () => {
    serve(emmas('member', [kite, drum]), [emmasList()]);
    renderPage();
    expect(await within(await card('Kite')).findByRole('button', { name: 'Delete Kite' })).toBeInTheDocument();
    expect(within(await card('Drum')).getByTestId('claimed-by')).toHaveTextContent('Getting it: Aunt Ann ✓ bought');
  });

  it('shows the recipient nothing of suggestions, keepers or claims, even if an answer carried them', async () => {
    const calls = serve(emmas('owner', [kite, drum]));
    renderPage();
    const cards = await screen.findAllByTestId('shared-item');
    expect(screen.getByTestId('shared-whose')).toHaveTextContent('Your list, as your family sees it');
    expect(screen.queryByRole('button', { name: 'Suggest a gift' })).not.toBeInTheDocument();
    for (const c of cards) {
      expect(c).not.toHaveTextContent(/Suggested|Granny|Aunt Ann|Getting it|Taken|taken/);
      expect(within(c).queryByRole('button', { name: /Edit|Delete|I'll get this/ })).not.toBeInTheDocument();
    }
    expect(document.body).not.toHaveTextContent(/kept by|Ben/);
    expect(calls.some((c) => c.url === '/api/lists')).toBe(false);
  });
});
