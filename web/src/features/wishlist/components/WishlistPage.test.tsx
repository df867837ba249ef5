import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { anItem } from '../../../test/items';
import { json, mockFetch, renderWithProviders, signedIn } from '../../../test/utils';
import type { WishlistItem } from '../types';
import WishlistPage from './WishlistPage';

function item(id: string, name: string, category: string | null, extra: Partial<WishlistItem> = {}): WishlistItem {
  return anItem({
    id,
    name,
    description: `${name} description`,
    category,
    searchQuery: name.toLowerCase(),
    createdAt: '2026-12-01T10:00:00Z',
    ...extra,
  });
}

const ITEMS = [
  item('1', 'Headphones', 'Electronics'),
  item('2', 'Scarf', 'Clothing', { shoppingUrl: 'https://shop.example/scarf' }),
  item('3', 'Mystery box', null),
  item('4', 'Tablet', 'Electronics'),
];

function renderPage() {
  return renderWithProviders(<WishlistPage />, { path: '/wishlist', preloadedState: signedIn() });
}

describe('My Wishlist', () => {
  it('shows a spinner while loading', () => {
    mockFetch(() => new Promise<Response>(() => undefined));
    renderPage();
    expect(screen.getByRole('status', { name: 'Loading your wishlist' })).toBeInTheDocument();
  });

  it('shows the empty state with its two ways to add', async () => {
    mockFetch(() => json([]));
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Your Wishlist is Empty' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Describe an Item' })).toHaveAttribute('href', '/text-prompt');
    expect(screen.getByRole('link', { name: 'Take a Photo' })).toHaveAttribute('href', '/camera');
    expect(screen.getByRole('link', { name: 'Add Item' })).toHaveAttribute('href', '/text-prompt');
    expect(screen.getByRole('link', { name: 'Take Photo' })).toHaveAttribute('href', '/camera');
  });

  it('has an All Items tab and one per category, Uncategorized for none', async () => {
    mockFetch(() => json(ITEMS));
    const user = userEvent.setup();
    renderPage();
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['All Items', 'Electronics', 'Clothing', 'Uncategorized']);
    expect(screen.getAllByTestId('wishlist-item')).toHaveLength(4);

    await user.click(screen.getByRole('tab', { name: 'Electronics' }));
    expect(screen.getByRole('tab', { name: 'Electronics' })).toHaveAttribute('aria-selected', 'true');
    const names = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(names).toEqual(['Headphones', 'Tablet']);

    await user.click(screen.getByRole('tab', { name: 'Uncategorized' }));
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Mystery box']);
  });

  it('shows who gave what when the server sends claims (after the reveal date), and nothing otherwise', async () => {
    mockFetch(() =>
      json([
        item('1', 'Headphones', 'Electronics', { claims: [{ displayName: 'Aunt Ann', quantity: 2, purchased: true, revealedAt: '2025-12-26T00:00:00Z' }] }),
        item('2', 'Scarf', 'Clothing'),
      ]),
    );
    renderPage();
    const cards = await screen.findAllByTestId('wishlist-item');
    expect(within(cards[0]).getByTestId('given-by')).toHaveTextContent('From Aunt Ann (2)');
    expect(within(cards[1]).queryByTestId('given-by')).not.toBeInTheDocument();
  });

  it('shows the gift history by year, newest year first, and no history without revealed claims', async () => {
    const revealed = (displayName: string, revealedAt: string, quantity = 1) => ({ displayName, quantity, purchased: true, revealedAt });
    mockFetch(() =>
      json([
        item('1', 'Headphones', 'Electronics', { claims: [revealed('Aunt Ann', '2025-12-26T00:00:00Z', 2), revealed('Uncle Bob', '2026-12-26T00:00:00Z')] }),
        item('2', 'Scarf', 'Clothing', { claims: [revealed('Grandma', '2025-12-26T00:00:00Z')] }),
        item('3', 'Kite', 'Toys'),
      ]),
    );
    renderPage();
    const history = await screen.findByRole('region', { name: 'Gift history' });
    const years = within(history).getAllByTestId('gift-year');
    expect(years.map((y) => within(y).getByRole('heading', { level: 3 }).textContent)).toEqual(['2026', '2025']);
    expect(within(years[0]).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Headphones, given by Uncle Bob']);
    expect(within(years[1]).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Headphones × 2, given by Aunt Ann',
      'Scarf, given by Grandma',
    ]);
    expect(history).not.toHaveTextContent('Kite');
  });

  it('shows no gift history while no claim is revealed', async () => {
    mockFetch(() => json(ITEMS));
    renderPage();
    await screen.findAllByTestId('wishlist-item');
    expect(screen.queryByTestId('gift-history')).not.toBeInTheDocument();
    expect(screen.queryByText('Gift history')).not.toBeInTheDocument();
  });

  it('draws the category icon for each item', async () => {
    mockFetch(() => json(ITEMS));
    renderPage();
    const cards = await screen.findAllByTestId('wishlist-item');
    const kinds = cards.map((c) => c.querySelector('.item-card__category [data-category-icon]')?.getAttribute('data-category-icon'));
    expect(kinds).toEqual(['electronics', 'clothing', 'other', 'electronics']);
  });

  it('removes an item after confirmation and says so', async () => {
    let items = [...ITEMS];
    const calls = mockFetch((call) => {
      if (call.method === 'DELETE') {
        items = items.filter((i) => `/api/wishlist/${i.id}` !== call.url);
        return new Response(null, { status: 204 });
      }
      return json(items);
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove Scarf' }));

    expect(confirm).toHaveBeenCalledWith('Are you sure you want to remove this item from your wishlist?');
    expect(await screen.findByText('Item removed')).toBeInTheDocument();
    expect(screen.getByText('Item has been removed from your wishlist.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/wishlist/2')).toBe(true);
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Scarf' })).not.toBeInTheDocument());
    expect(screen.queryByRole('tab', { name: 'Clothing' })).not.toBeInTheDocument();
  });

  it('keeps the item when the confirmation is declined', async () => {
    const calls = mockFetch(() => json(ITEMS));
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove Scarf' }));
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    expect(screen.getByRole('heading', { name: 'Scarf' })).toBeInTheDocument();
  });

  it('reports a failed removal', async () => {
    mockFetch((call) =>
      call.method === 'DELETE'
        ? json({ error: { code: 'not_found', message: 'Item not found.' } }, 404)
        : json(ITEMS),
    );
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove Tablet' }));
    expect(await screen.findByText('Failed to remove item: Item not found.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });

  it('opens the shop in a new tab: the item link, else a search of its query', async () => {
    mockFetch(() => json(ITEMS));
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const user = userEvent.setup();
    renderPage();
    const scarf = (await screen.findByRole('heading', { name: 'Scarf' })).closest('article')!;
    await user.click(within(scarf).getByRole('button', { name: /Shop/ }));
    expect(open).toHaveBeenLastCalledWith('https://shop.example/scarf', '_blank', 'noopener,noreferrer');

    const tablet = screen.getByRole('heading', { name: 'Tablet' }).closest('article')!;
    await user.click(within(tablet).getByRole('button', { name: /Shop/ }));
    expect(open).toHaveBeenLastCalledWith('https://www.google.com/search?tbm=shop&q=tablet', '_blank', 'noopener,noreferrer');
  });
});
