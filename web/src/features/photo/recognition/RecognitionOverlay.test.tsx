import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderWithProviders, signedIn, signedOut } from '../../../test/utils';
import { RecognitionOverlay } from './RecognitionOverlay';

const PHOTO = 'data:image/jpeg;base64,cGhvdG8=';
const ANALYSIS = {
  id: 'a1',
  name: 'Racing Car',
  description: 'A red remote-controlled racing car.',
  category: 'Toys',
  searchQuery: 'red rc racing car',
  approximatePrice: '$39.99',
  features: ['Remote control', 'Rechargeable', 'Top speed 20 km/h'],
  source: 'gemini',
};

function renderOverlay(state = signedIn()) {
  return renderWithProviders(<RecognitionOverlay image={PHOTO} />, { path: '/camera', preloadedState: state });
}

describe('Product Recognition overlay', () => {
  it('analyses the photo and shows name, description, category, price and features', async () => {
    const calls = mockFetch(() => json(ANALYSIS));
    const user = userEvent.setup();
    renderOverlay();
    const dialog = screen.getByRole('dialog', { name: 'Product Recognition' });
    await user.click(within(dialog).getByRole('button', { name: 'Analyze Image' }));
    const result = await screen.findByTestId('analysis-result');
    expect(calls[0]).toMatchObject({ url: '/api/vision/analyze', method: 'POST', body: { image: PHOTO } });
    expect(within(result).getByRole('heading', { name: 'Racing Car' })).toBeInTheDocument();
    expect(result).toHaveTextContent('A red remote-controlled racing car.');
    expect(result).toHaveTextContent('CategoryToys');
    expect(result).toHaveTextContent('Price$39.99');
    expect(within(result).getAllByRole('listitem').map((li) => li.textContent)).toEqual(ANALYSIS.features);
    expect(screen.getByTestId('toast')).toHaveTextContent('Analysis Complete');
  });

  it('shows Analysis Failed and the generic gift item when the AI fails', async () => {
    mockFetch(() => json({ error: { code: 'gemini_error', message: 'Gemini API error (500)' } }, 502));
    const user = userEvent.setup();
    renderOverlay();
    await user.click(screen.getByRole('button', { name: 'Analyze Image' }));
    const result = await screen.findByTestId('analysis-result');
    expect(within(result).getByRole('heading', { name: 'Gift Item' })).toBeInTheDocument();
    expect(result).toHaveTextContent('CategoryGifts');
    const toast = screen.getByTestId('toast');
    expect(toast).toHaveTextContent('Analysis Failed');
    expect(toast).toHaveTextContent('Gemini API error (500)');
  });

  it('adds the analysed item with the photo (pending, then Added) and opens the wishlist', async () => {
    const calls = mockFetch((call) => (call.url === '/api/vision/analyze' ? json(ANALYSIS) : json({ id: 'w1' }, 201)));
    const user = userEvent.setup();
    const { router } = renderOverlay();
    await user.click(screen.getByRole('button', { name: 'Analyze Image' }));
    await user.click(await screen.findByRole('button', { name: 'Add to List' }));
    expect(await screen.findByRole('button', { name: 'Added' })).toBeDisabled();
    const post = calls.find((c) => c.url === '/api/wishlist');
    expect(post?.body).toEqual({
      name: 'Racing Car',
      description: 'A red remote-controlled racing car.',
      price: '$39.99',
      imageUrl: PHOTO,
      category: 'Toys',
      features: ANALYSIS.features,
      searchQuery: 'red rc racing car',
      shoppingUrl: 'https://www.google.com/search?tbm=shop&q=red%20rc%20racing%20car',
      aiGenerated: true,
      sentToSanta: false,
    });
    expect(post?.headers.get('Idempotency-Key')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/wishlist'), { timeout: 2000 });
  });

  it('asks a signed-out visitor to log in instead of saving, keeping the photo', async () => {
    const calls = mockFetch(() => json(ANALYSIS));
    const user = userEvent.setup();
    renderOverlay(signedOut());
    await user.click(screen.getByRole('button', { name: 'Analyze Image' }));
    await user.click(await screen.findByRole('button', { name: 'Add to List' }));
    expect(screen.getByRole('dialog', { name: 'Log in to Save Your Gift!' })).toBeInTheDocument();
    expect(localStorage.getItem('capturedImage')).toBe(PHOTO);
    expect(calls.filter((c) => c.url === '/api/wishlist')).toHaveLength(0);
  });

  it('Escape closes it: the photo is kept and the editor opens', async () => {
    const { router } = renderOverlay();
    await act(async () => {
      await userEvent.setup().keyboard('{Escape}');
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/edit-photo'));
    expect(localStorage.getItem('capturedImage')).toBe(PHOTO);
  });
});
