import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderWithProviders, signedIn, signedOut } from '../../../test/utils';
import type { WishList } from '../types';
import { ListLinkCard } from './ListLinkCard';

const DEFAULT: WishList = {
  id: 'default',
  name: 'My Wishlist',
  isDefault: true,
  itemCount: 1,
  revealAt: '2026-12-26T00:00:00Z',
  share: null,
  familyIds: [],
  recipient: { kind: 'self' },
  role: 'owner',
  managers: [],
};

describe('the whole list link on the share options screen', () => {
  it('makes the default list link, then offers it to copy', async () => {
    let current = DEFAULT;
    const calls = mockFetch((call) => {
      if (call.method === 'POST') {
        current = { ...current, share: { token: 'tok1', url: '/l/tok1' } };
        return json(current.share);
      }
      return json([current]);
    });
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<ListLinkCard />, { preloadedState: signedIn() });
    await userEvent.click(await screen.findByRole('button', { name: 'Make a link to My Wishlist' }));
    expect(calls.find((c) => c.method === 'POST')?.url).toBe('/api/lists/default/share');
    const input = await screen.findByLabelText('Link to your whole list (My Wishlist)');
    expect(input).toHaveValue(`${window.location.origin}/l/tok1`);
    await userEvent.click(screen.getByRole('button', { name: 'Copy List Link' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/l/tok1`));
  });

  it('shows nothing and asks nothing for a signed-out visitor', async () => {
    const calls = mockFetch(() => json([DEFAULT]));
    const { container } = renderWithProviders(<ListLinkCard />, { preloadedState: signedOut() });
    await new Promise((r) => setTimeout(r, 50));
    expect(container.querySelector('[data-testid="list-link"]')).toBeNull();
    expect(calls).toHaveLength(0);
  });
});
