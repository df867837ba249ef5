import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderWithProviders, signedIn, signedOut } from '../../../test/utils';
import { setTokenProvider } from '../../../lib/authToken';
import { storeEditedImage, storeGiftDetails } from '../flow';
import GiftOptionsPage from './GiftOptionsPage';

const EDITED = 'data:image/jpeg;base64,ZWRpdGVk';

vi.mock('../../../lib/sounds', () => ({ playSound: vi.fn(), preloadSounds: vi.fn(), SOUNDS: {} }));

function renderPage(state = signedIn()) {
  return renderWithProviders(<GiftOptionsPage />, { path: '/gift-options', preloadedState: state });
}

describe('gift options', () => {
  afterEach(() => {
    setTokenProvider(async () => null);
    vi.useRealTimers();
  });

  it('sends the visitor back to the editor when no edited image is stored', async () => {
    mockFetch(() => json([]));
    const { router } = renderPage();
    await waitFor(() => expect(router.state.location.pathname).toBe('/edit-photo'));
  });

  it('shows the edited image, the AI name, description and price with the AI Enhanced badge', () => {
    mockFetch(() => json([]));
    storeEditedImage(EDITED);
    storeGiftDetails({ name: 'Racing Car', description: 'A fast red toy car.', price: '$24.99' }, true);
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Gift Options' })).toBeInTheDocument();
    expect(screen.getByAltText('Your decorated photo of Racing Car')).toHaveAttribute('src', EDITED);
    expect(screen.getByTestId('gift-name')).toHaveTextContent('Racing Car');
    expect(screen.getByText('A fast red toy car.')).toBeInTheDocument();
    expect(screen.getByTestId('gift-price')).toHaveTextContent('$24.99');
    expect(screen.getByText('AI Enhanced')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Share Gift Idea' })).toHaveAttribute('href', '/share-options');
    expect(screen.getByRole('link', { name: /Back/ })).toHaveAttribute('href', '/edit-photo');
  });

  it('has no AI Enhanced badge when the defaults were stored after an AI failure', () => {
    mockFetch(() => json([]));
    storeEditedImage(EDITED);
    storeGiftDetails({ name: 'Wishlist Item', description: 'A gift item from your wishlist', price: '$0.00' }, false);
    renderPage();
    expect(screen.getByTestId('gift-name')).toHaveTextContent('Wishlist Item');
    expect(screen.queryByText('AI Enhanced')).not.toBeInTheDocument();
  });

  it('opens a shop search for the name in a new tab', async () => {
    mockFetch(() => json([]));
    storeEditedImage(EDITED);
    storeGiftDetails({ name: 'Racing Car', description: 'A fast red toy car.', price: '$24.99' }, true);
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    renderPage();
    await userEvent.setup().click(screen.getByRole('button', { name: /View on an online shop/ }));
    expect(open).toHaveBeenCalledWith('https://www.google.com/search?tbm=shop&q=Racing%20Car', '_blank', 'noopener,noreferrer');
  });

  it('signed out: Send to Santa plays the overlay, then shows the login modal after 3.5 s', async () => {
    const calls = mockFetch(() => json([]));
    storeEditedImage(EDITED);
    vi.useFakeTimers();
    const { store } = renderPage(signedOut());
    fireEvent.click(screen.getByRole('button', { name: 'Send to Santa' }));
    expect(store.getState().shell.santa).toEqual({ id: 1, visible: true });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3400);
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    const dialog = screen.getByRole('dialog', { name: 'Log in to Save Your Gift!' });
    expect(within(dialog).getByText(/kept on this device for now, but only temporarily/)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('signed in: Send to Santa posts the gift and opens the confirmation after 3.5 s', async () => {
    setTokenProvider(async () => 'id-token-7');
    const calls = mockFetch((call) => (call.method === 'POST' ? json({ id: 'i1', name: 'Racing Car', sentToSanta: true }) : json([])));
    storeEditedImage(EDITED);
    storeGiftDetails({ name: 'Racing Car', description: 'A fast red toy car.', price: '$24.99' }, true);
    vi.useFakeTimers();
    const { router } = renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Send to Santa' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3000);
    });
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe('/api/santa');
    expect(post?.body).toEqual({ name: 'Racing Car', description: 'A fast red toy car.', price: '$24.99', imageUrl: EDITED });
    expect(post?.headers.get('Authorization')).toBe('Bearer id-token-7');
    expect(post?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(router.state.location.pathname).toBe('/gift-options');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(600);
    });
    expect(router.state.location.pathname).toBe('/confirmation');
  });

  it('signed in: Add to Wishlist saves the image as a data URL, says so and moves the badge', async () => {
    setTokenProvider(async () => 'id-token-7');
    const calls = mockFetch((call) => (call.method === 'POST' ? json({ id: 'i2' }, 201) : json([])));
    storeEditedImage(EDITED);
    storeGiftDetails({ name: 'Racing Car', description: 'A fast red toy car.', price: '$24.99' }, true);
    const { store } = renderPage();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add to Wishlist' }));
    expect(await screen.findByRole('button', { name: 'Added to Wishlist' })).toBeDisabled();
    expect(screen.getByTestId('shell-toast')).toHaveTextContent('Added to Wishlist');
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe('/api/wishlist');
    expect(post?.body).toEqual({ name: 'Racing Car', description: 'A fast red toy car.', price: '$24.99', imageUrl: EDITED });
    expect(post?.headers.get('Idempotency-Key')).toBeTruthy();
    // Saved through the wishlist's own mutation, whose cache the badge counts.
    const mutations = Object.values(store.getState().api.mutations);
    expect(mutations).toContainEqual(expect.objectContaining({ endpointName: 'addWishlistItem', status: 'fulfilled' }));
  });

  it('signed out: Add to Wishlist shows the login modal and saves nothing', async () => {
    const calls = mockFetch(() => json([]));
    storeEditedImage(EDITED);
    renderPage(signedOut());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add to Wishlist' }));
    expect(screen.getByRole('dialog', { name: 'Log in to Save Your Gift!' })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('reports a failed save', async () => {
    mockFetch((call) =>
      call.method === 'POST' ? json({ error: { code: 'x', message: 'Service unavailable' } }, 503) : json([]),
    );
    storeEditedImage(EDITED);
    renderPage();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add to Wishlist' }));
    expect(await screen.findByTestId('toast')).toHaveTextContent('Failed to add to wishlist: Service unavailable');
    expect(screen.getByRole('button', { name: 'Add to Wishlist' })).toBeEnabled();
  });
});
