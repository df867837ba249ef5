import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { authLoading, json, mockFetch, renderWithProviders, signedIn, signedOut } from '../../test/utils';
import { FESTIVE_FACTS, NORTH_POLE_FACTS } from '../../lib/facts';
import { FACT_ROTATE_MS } from '../../features/home/components/FactCard';
import HomePage from './HomePage';

describe('Home', () => {
  it('has the four tiles with the spec labels', () => {
    renderWithProviders(<HomePage />, { preloadedState: signedOut() });
    const tiles = screen.getByRole('navigation', { name: 'Add gifts' });
    const links = Array.from(tiles.querySelectorAll('a')).map((a) => [a.getAttribute('href'), a.textContent]);
    expect(links).toEqual([
      ['/camera', 'Take Photo of your gift'],
      ['/scan', 'Scan UPC code of item'],
      ['/wishlist', 'View Wishlist'],
      ['/text-prompt', 'Add with Text'],
    ]);
  });

  it('counts the days to Christmas', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 11, 20, 10));
    try {
      renderWithProviders(<HomePage />, { preloadedState: signedOut() });
      expect(screen.getByTestId('countdown-days')).toHaveTextContent('5');
      expect(screen.getByText(/days until Christmas/)).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('invites a signed-out visitor to log in, with 20 + 10 snowflakes', () => {
    renderWithProviders(<HomePage />, { preloadedState: signedOut() });
    expect(screen.getByRole('heading', { name: 'Log in to Save Your Wishlist!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/firebase-login');
    const [cardSnow, ctaSnow] = screen.getAllByTestId('snowfall');
    // Flakes in view: the first tile of each depth (the second repeats it, for a seamless loop).
    const inView = (snow: HTMLElement) =>
      within(snow).getAllByTestId('snowfall-tile').reduce((sum, tile) => sum + tile.children.length, 0);
    expect(inView(cardSnow)).toBe(20);
    expect(inView(ctaSnow)).toBe(10);
  });

  it('shows neither card while auth is still loading', () => {
    renderWithProviders(<HomePage />, { preloadedState: authLoading() });
    expect(screen.queryByText('Log in to Save Your Wishlist!')).not.toBeInTheDocument();
    expect(screen.queryByText('Welcome Back to Your Wishlist!')).not.toBeInTheDocument();
  });

  it('welcomes a signed-in user back and lists recent items', async () => {
    const calls = mockFetch(() =>
      json([
        { id: 'a', name: 'Sled', price: '$80', category: 'Toys', imageUrl: null },
        { id: 'b', name: 'Mittens', price: null, category: 'Clothing', imageUrl: null },
      ]),
    );
    renderWithProviders(<HomePage />, { preloadedState: signedIn() });
    expect(screen.getByRole('heading', { name: 'Welcome Back to Your Wishlist!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to My Wishlist' })).toHaveAttribute('href', '/wishlist');
    expect(await screen.findByText('Sled')).toBeInTheDocument();
    expect(screen.getByText('Mittens')).toBeInTheDocument();
    expect(calls[0].url).toBe('/api/wishlist/recent');
  });

  it('rotates the Did You Know? fact and switches to North Pole facts', async () => {
    renderWithProviders(<HomePage />, { preloadedState: signedOut() });
    const first = screen.getByTestId('fact').textContent!;
    expect(FESTIVE_FACTS).toContain(first);
    await userEvent.click(screen.getByRole('button', { name: 'Next fact' }));
    expect(screen.getByTestId('fact').textContent).not.toBe(first);

    await userEvent.click(screen.getByRole('button', { name: 'North Pole' }));
    expect(screen.getByRole('button', { name: 'North Pole' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('fact')).toHaveTextContent(NORTH_POLE_FACTS[0]);
  });

  it('changes the fact on its own every few seconds', () => {
    vi.useFakeTimers();
    try {
      renderWithProviders(<HomePage />, { preloadedState: signedOut() });
      const first = screen.getByTestId('fact').textContent;
      act(() => vi.advanceTimersByTime(FACT_ROTATE_MS));
      expect(screen.getByTestId('fact').textContent).not.toBe(first);
    } finally {
      vi.useRealTimers();
    }
  });

  it('has 8 facts of each kind', () => {
    expect(FESTIVE_FACTS).toHaveLength(8);
    expect(NORTH_POLE_FACTS).toHaveLength(8);
  });
});
