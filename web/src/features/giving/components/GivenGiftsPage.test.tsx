import { screen, within } from '@testing-library/react';
import { json, mockFetch, renderWithProviders, signedIn } from '../../../test/utils';
import type { GivenGift } from '../types';
import GivenGiftsPage from './GivenGiftsPage';

function gift(over: Partial<GivenGift>): GivenGift {
  return {
    season: 2026,
    recipient: { displayName: 'Emma' },
    item: { name: 'Red bicycle', imageUrl: null },
    quantity: 1,
    together: null,
    revealedAt: '2026-12-24T00:00:00Z',
    thanks: null,
    ...over,
  };
}

describe('/gifts/given: "Gifts I gave"', () => {
  it('lists the gifts by season, newest first, with their thanks', async () => {
    mockFetch((call) => {
      expect(call.url).toBe('/api/gifts/given');
      return json([
        gift({ thanks: { message: 'I ride it every day!', at: '2026-12-26T10:00:00Z' } }),
        gift({ item: { name: 'Lego castle', imageUrl: null }, recipient: { displayName: 'Tom' }, quantity: 0, together: { amount: '25.00', currency: 'EUR' } }),
        gift({ season: 2025, item: { name: 'Wool scarf', imageUrl: null }, recipient: { displayName: 'Grandpa' }, quantity: 2 }),
      ]);
    });
    renderWithProviders(<GivenGiftsPage />, { path: '/gifts/given', preloadedState: signedIn() });
    const seasons = await screen.findAllByTestId('given-season');
    expect(seasons.map((s) => within(s).getByRole('heading').textContent)).toEqual(['2026', '2025']);
    const [bike, lego] = within(seasons[0]).getAllByTestId('given-gift');
    expect(bike).toHaveTextContent('Red bicycle');
    expect(bike).toHaveTextContent('For Emma');
    expect(within(bike).getByText('I ride it every day!').tagName).toBe('BLOCKQUOTE');
    expect(bike).toHaveTextContent('Emma, Dec 26, 2026');
    expect(lego).toHaveTextContent('For Tom · together, your share €25.00');
    expect(lego).toHaveTextContent('No thanks yet.');
    expect(within(seasons[1]).getByTestId('given-gift')).toHaveTextContent('Wool scarf × 2');
  });

  it('says when there is nothing yet', async () => {
    mockFetch(() => json([]));
    renderWithProviders(<GivenGiftsPage />, { path: '/gifts/given', preloadedState: signedIn() });
    expect(await screen.findByText(/No gifts here yet/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'My gift shopping list' })).toHaveAttribute('href', '/claims');
  });
});
