import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { anItem } from '../../../test/items';
import { json, mockFetch, renderWithProviders, signedIn, signedOut } from '../../../test/utils';
import { SESSION_KEYS } from '../../../lib/storage';
import type { SharedItem, SharedList, WishList } from '../types';
import SharedListPage from './SharedListPage';

const TOKEN = 'tok_abc';

function item(over: Partial<SharedItem>): SharedItem {
  return {
    ...anItem({
      id: 'i1',
      name: 'Bike',
      description: 'A red bike with a bell.',
      price: '$120',
      imageUrl: '/media/bike.jpg',
      searchQuery: 'red bike',
      shoppingUrl: 'https://shop.example/bike',
      listId: 'l1',
    }),
    ...over,
  };
}

function shared(viewer: SharedList['viewer'], items: SharedItem[]): SharedList {
  return { viewer, list: { id: 'l1', name: 'Christmas', ownerName: 'Tom' }, items };
}

/** The fetch mock's answers, with the viewer's own lists (GET /api/lists) answered apart. */
function answers(handler: Parameters<typeof mockFetch>[0], lists: WishList[] = []) {
  return mockFetch((call) => (call.url === '/api/lists' ? json(lists) : handler(call)));
}

function renderPage(state = signedIn()) {
  return renderWithProviders(<SharedListPage />, { path: '/l/:token', initialEntry: `/l/${TOKEN}`, preloadedState: state });
}

describe('shared list page /l/:token', () => {
  it('shows photos, prices, notes and shop buttons, most wanted first, and marks taken items', async () => {
    answers(() =>
      json(
        shared('member', [
          item({ id: 'a', name: 'Socks', createdAt: '2026-11-05T10:00:00Z', claimed: 1, mine: 0 }),
          item({ id: 'b', name: 'Bike', priority: 3, notes: 'Size 24"', claimed: 0, mine: 0 }),
        ]),
      ),
    );
    renderPage();
    const cards = await screen.findAllByTestId('shared-item');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(['Bike', 'Socks']);
    expect(within(cards[0]).getByText('★ Most wanted')).toBeInTheDocument();
    expect(within(cards[0]).getByText('Size 24"')).toBeInTheDocument();
    expect(within(cards[0]).getByText('$120')).toBeInTheDocument();
    expect(cards[0].querySelector('img')).toHaveAttribute('src', '/media/bike.jpg');
    expect(within(cards[0]).getByRole('button', { name: /Shop for Bike/ })).toBeInTheDocument();
    expect(within(cards[1]).getByText('Taken')).toBeInTheDocument();
    expect(within(cards[1]).queryByRole('button', { name: /I'll get this/ })).not.toBeInTheDocument();
    expect(within(cards[0]).queryByText('Taken')).not.toBeInTheDocument();
    // A taken gift offers no second purchase.
    expect(within(cards[1]).queryByRole('button', { name: /Shop for/ })).not.toBeInTheDocument();
  });

  it('lists taken gifts last and dimmed, and keeps the shop button for their taker only', async () => {
    answers((call) =>
      call.url === '/api/claims'
        ? json([])
        : json(
            shared('member', [
              item({ id: 'a', name: 'Bike', priority: 3, claimed: 1, mine: 0 }),
              item({ id: 'b', name: 'Kite', claimed: 1, mine: 1, createdAt: '2026-11-06T10:00:00Z' }),
              item({ id: 'c', name: 'Socks', claimed: 0, mine: 0, imageUrl: '', createdAt: '2026-11-05T10:00:00Z' }),
            ]),
          ),
    );
    renderPage();
    const cards = await screen.findAllByTestId('shared-item');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(['Socks', 'Bike', 'Kite']);
    expect(cards[1]).toHaveClass('shared-item--taken');
    expect(cards[2]).toHaveClass('shared-item--taken');
    expect(await screen.findByRole('button', { name: 'Shop for Kite (opens in a new tab)' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Shop for Bike/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Shop for Socks (opens in a new tab)' })).toBeInTheDocument();
    // Without a photo the card is compact.
    expect(cards[0]).toHaveClass('media-card--no-photo');
    expect(cards[1]).not.toHaveClass('media-card--no-photo');
    // Screen readers hear what is left, politely.
    expect(screen.getByTestId('still-to-buy-status')).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByTestId('still-to-buy-status')).toHaveTextContent('1 gift still to buy');
  });

  it('switches to the dense view and keeps the choice', async () => {
    answers(() => json(shared('member', [item({ claimed: 0, mine: 0 })])));
    renderPage();
    const toggle = await screen.findByRole('button', { name: 'Compact view' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('shared-item').parentElement).toHaveClass('shared-list__items--dense');
    expect(localStorage.getItem('santa:denseLists')).toBe('1');
    await userEvent.click(toggle);
    expect(localStorage.getItem('santa:denseLists')).toBe('0');
  });

  it("names someone else's default list after its owner, and the owner's own as theirs", async () => {
    answers(() => json({ ...shared('member', [item({ claimed: 0, mine: 0 })]), list: { id: 'l1', name: 'My Wishlist', ownerName: 'Tom' } }));
    const first = renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: "Tom's wishlist" })).toBeInTheDocument();
    expect(document.title).toBe("Tom's wishlist | Santa Wishlist");
    // Not said twice: no "Tom's wishlist" line above the title.
    expect(screen.queryByTestId('shared-whose')).not.toBeInTheDocument();
    first.unmount();
    answers(() => json({ ...shared('owner', [item({})]), list: { id: 'l1', name: 'My Wishlist', ownerName: 'Tom' } }));
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'My Wishlist' })).toBeInTheDocument();
  });

  it('claims a chosen number of units and then offers purchased and release', async () => {
    let list = shared('member', [item({ quantity: 3, claimed: 1, mine: 0 })]);
    let bought = false;
    const calls = answers((call) => {
      if (call.method === 'PUT') {
        bought = (call.body as { purchased: boolean }).purchased;
        list = shared('member', [item({ quantity: 3, claimed: 3, mine: 2 })]);
        return json({ claimed: 3, mine: 2, purchased: bought });
      }
      if (call.url === '/api/claims') {
        return json([{ quantity: 2, purchased: bought, list: { name: 'Christmas', ownerName: 'Tom', token: TOKEN }, item: item({}) }]);
      }
      return json(list);
    });
    renderPage();
    await userEvent.selectOptions(await screen.findByLabelText('Units'), '2');
    await userEvent.click(screen.getByRole('button', { name: /I'll get this/ }));
    expect(await screen.findByText('You are getting 2')).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe(`/api/shared/${TOKEN}/items/i1/claim`);
    expect(put?.body).toEqual({ quantity: 2, purchased: false });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Purchased' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ quantity: 2, purchased: true }));
    // The tick comes from the shopping list, so it is still there after a reload.
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Purchased' })).toBeChecked());
    expect(screen.getByRole('button', { name: 'Release Bike' })).toBeInTheDocument();
  });

  it('shows the server message when someone else took the last unit', async () => {
    answers((call) =>
      call.method === 'PUT'
        ? json({ error: { code: 'not_enough_left', message: 'Someone else just claimed it.' } }, 409)
        : json(shared('member', [item({ claimed: 0, mine: 0 })])),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: /I'll get this/ }));
    expect(await screen.findByText('Someone else just claimed it.')).toBeInTheDocument();
  });

  it('shows an anonymous visitor no claim state, only an invitation to sign in that comes back to the list', async () => {
    const calls = mockFetch(() =>
      json(
        shared('anonymous', [
          item({ id: 'a', name: 'Bike', quantity: 2 }),
          item({ id: 'b', name: 'Socks', createdAt: '2026-11-05T10:00:00Z' }),
        ]),
      ),
    );
    renderPage(signedOut());
    const cards = await screen.findAllByTestId('shared-item');
    expect(cards).toHaveLength(2);
    for (const card of cards) {
      expect(within(card).queryByText(/Taken|taken|getting/)).not.toBeInTheDocument();
      expect(within(card).queryByRole('button', { name: /I'll get this|Release/ })).not.toBeInTheDocument();
      expect(within(card).queryByRole('checkbox')).not.toBeInTheDocument();
    }
    expect(screen.getByText('Wants 2')).toBeInTheDocument();
    const invite = screen.getByRole('complementary', { name: 'Giving one of these?' });
    expect(invite).toHaveTextContent('Tom never sees who claimed what before the surprise.');
    await userEvent.click(within(invite).getByRole('link', { name: 'Sign in to see what is taken' }));
    expect(sessionStorage.getItem(SESSION_KEYS.redirectAfterLogin)).toBe(`/l/${TOKEN}`);
    expect(await screen.findByTestId('location')).toHaveTextContent('/login');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    expect(calls.some((c) => c.url === '/api/claims')).toBe(false);
  });

  it('shows claim marks only to members, even if an answer to anyone else carried claim fields', async () => {
    const taken = [item({ claimed: 1, mine: 0, claims: [{ displayName: 'Aunt Ann', quantity: 1, purchased: false, revealedAt: '2025-12-26T00:00:00Z' }] })];
    mockFetch(() => json(shared('anonymous', taken)));
    renderPage(signedOut());
    const card = await screen.findByTestId('shared-item');
    expect(card).not.toHaveTextContent(/Taken|Aunt Ann|From/);
    expect(card).not.toHaveClass('shared-item--taken');
  });

  it('shows the owner their items with no claim controls or marks', async () => {
    mockFetch(() => json(shared('owner', [item({ quantity: 2 })])));
    renderPage();
    const card = await screen.findByTestId('shared-item');
    expect(screen.getByText('Your list, as your family sees it')).toBeInTheDocument();
    expect(screen.queryByTestId('sign-in-invite')).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: /I'll get this/ })).not.toBeInTheDocument();
    expect(within(card).queryByText(/Taken|taken|getting/)).not.toBeInTheDocument();
  });

  it('says so when the link was revoked or never existed', async () => {
    mockFetch(() => json({ error: { code: 'share_not_found', message: 'Shared list not found.' } }, 404));
    renderPage();
    expect(await screen.findByRole('heading', { name: 'This link no longer works' })).toBeInTheDocument();
  });
});
