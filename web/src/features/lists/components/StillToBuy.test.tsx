import { screen } from '@testing-library/react';
import { anItem } from '../../../test/items';
import { json, mockFetch, renderWithProviders, signedIn } from '../../../test/utils';
import type { SharedItem, SharedList } from '../types';
import { StillToBuy } from './StillToBuy';

function item(id: string, over: Partial<SharedItem> = {}): SharedItem {
  return { ...anItem({ id, name: `Gift ${id}`, listId: 'l1' }), ...over };
}

function answer(list: SharedList) {
  return mockFetch(() => json(list));
}

function renderCount() {
  return renderWithProviders(<StillToBuy token="tok" />, { preloadedState: signedIn() });
}

const LIST = { id: 'l1', name: 'My Wishlist', ownerName: 'Tom' };

describe('gifts still to buy on a family list', () => {
  it('counts, for a giver, the gifts with a unit nobody claimed', async () => {
    const calls = answer({
      viewer: 'member',
      list: LIST,
      items: [
        item('a', { claimed: 0, mine: 0 }),
        item('b', { quantity: 2, claimed: 1, mine: 1 }),
        item('c', { claimed: 1, mine: 0 }),
      ],
    });
    renderCount();
    expect(await screen.findByTestId('still-to-buy')).toHaveTextContent('2 gifts still to buy');
    expect(calls[0].url).toBe('/api/shared/tok');
  });

  it('says when every gift is taken, and when the list is empty', async () => {
    answer({ viewer: 'member', list: LIST, items: [item('a', { claimed: 1, mine: 0 })] });
    const first = renderCount();
    expect(await screen.findByTestId('still-to-buy')).toHaveTextContent('Every gift is taken');
    first.unmount();
    answer({ viewer: 'member', list: LIST, items: [] });
    renderCount();
    expect(await screen.findByTestId('still-to-buy')).toHaveTextContent('Nothing on it yet');
  });

  it('shows the recipient no figure at all, even if an answer carried claim fields', async () => {
    const calls = answer({ viewer: 'owner', list: LIST, items: [item('a', { claimed: 1, mine: 0 }), item('b')] });
    const { store } = renderCount();
    // The answer has arrived and rendered: it is in the store.
    await vi.waitFor(() => expect(Object.values(store.getState().api.queries).some((q) => q?.status === 'fulfilled')).toBe(true));
    expect(calls).toHaveLength(1);
    expect(screen.queryByTestId('still-to-buy')).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/still to buy|taken/);
  });
});
