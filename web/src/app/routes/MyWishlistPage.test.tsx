import { screen, waitFor, within } from '@testing-library/react';
import { anItem } from '../../test/items';
import { aList, emmasList } from '../../test/lists';
import { json, mockFetch, renderWithProviders, signedIn } from '../../test/utils';
import MyWishlistPage from './MyWishlistPage';

const drum = anItem({
  id: 'drum',
  name: 'Drum',
  listId: 'emma',
  claims: [{ displayName: 'Aunt Ann', quantity: 1, purchased: false, revealedAt: '2099-12-26T00:00:00Z' }],
});
const kite = anItem({ id: 'kite', name: 'Kite', listId: 'emma', suggested: true, suggestedBy: { displayName: 'Granny', mine: false } });

function render(list: string) {
  return renderWithProviders(<MyWishlistPage />, { path: '/wishlist', initialEntry: `/wishlist?list=${list}`, preloadedState: signedIn() });
}

describe('My Wishlist on a list kept for someone else', () => {
  it('shows its managers who is getting what and whose suggestion it is, and lets them claim through the link', async () => {
    const kept = emmasList({ share: { token: 'tok_emma', url: '/l/tok_emma' } });
    mockFetch((call) => {
      if (call.url === '/api/lists') return json([aList(), kept]);
      if (call.url.startsWith('/api/wishlist')) return json([drum, kite]);
      if (call.url === '/api/shared/tok_emma') {
        return json({
          viewer: 'member',
          list: { id: 'emma', name: kept.name, ownerName: 'Holly' },
          items: [
            { ...drum, claimed: 1, mine: 0 },
            { ...kite, claimed: 0, mine: 0 },
          ],
        });
      }
      return json([]);
    });
    render('emma');
    const cards = await screen.findAllByTestId('wishlist-item');
    const drumCard = cards.find((c) => within(c).queryByRole('heading', { name: 'Drum' }))!;
    const kiteCard = cards.find((c) => within(c).queryByRole('heading', { name: 'Kite' }))!;
    expect(within(drumCard).getByTestId('claimed-by')).toHaveTextContent('Getting it: Aunt Ann');
    expect(within(kiteCard).getByTestId('suggested-by')).toHaveTextContent('Suggested by Granny');
    expect(await within(kiteCard).findByRole('button', { name: "I'll get this: Kite" })).toBeInTheDocument();
    // This season's claims are not yet gifts given: no gift history.
    expect(screen.queryByTestId('gift-history')).not.toBeInTheDocument();
  });

  it('shows a list made for me exactly like my own: no claims, suggestions or claim buttons', async () => {
    const mine = aList({ id: 'teen', name: 'Christmas', isDefault: false, role: 'recipient', recipient: { kind: 'member', uid: 'uid-123', displayName: 'Holly' } });
    const calls = mockFetch((call) => {
      if (call.url === '/api/lists') return json([aList(), mine]);
      // Even if an answer carried them, the recipient's screen shows none of them.
      if (call.url.startsWith('/api/wishlist')) return json([{ ...drum, claims: undefined }, kite]);
      return json([]);
    });
    render('teen');
    const cards = await screen.findAllByTestId('wishlist-item');
    expect(cards).toHaveLength(2);
    for (const card of cards) expect(card).not.toHaveTextContent(/Suggested|Granny|Getting it|Aunt Ann/);
    expect(screen.queryByRole('button', { name: /I'll get this/ })).not.toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/shared'))).toBe(false));
  });
});
