import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderWithProviders, signedIn, signedOut } from '../../../test/utils';
import { setTokenProvider } from '../../../lib/authToken';
import AddItemPage from './AddItemPage';

function renderForm(preloadedState = signedIn()) {
  return renderWithProviders(<AddItemPage />, { path: '/text-prompt', preloadedState });
}

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Gift Name'), 'Wooden sled');
  await user.type(screen.getByLabelText('Description'), 'A red wooden sled for two children');
  await user.selectOptions(screen.getByLabelText('Category'), 'Toys');
}

describe('Add to Wishlist form', () => {
  afterEach(() => setTokenProvider(async () => null));

  it('offers the categories with the spec labels', () => {
    renderForm();
    const options = Array.from((screen.getByLabelText('Category') as HTMLSelectElement).options).map((o) => [
      o.value,
      o.textContent,
    ]);
    expect(options).toEqual([
      ['', 'Select a category'],
      ['Electronics', 'Electronics'],
      ['Clothing', 'Clothing & Apparel'],
      ['Toys', 'Toys & Games'],
      ['Home', 'Home & Kitchen'],
      ['Books', 'Books & Media'],
      ['Sports', 'Sports & Outdoors'],
      ['Beauty', 'Beauty & Personal Care'],
      ['Jewelry', 'Jewelry & Accessories'],
      ['Gift Cards', 'Gift Cards'],
      ['Other', 'Other'],
    ]);
  });

  it('shows every required-field message on an empty submit and sends nothing', async () => {
    const calls = mockFetch(() => json({}, 500));
    const user = userEvent.setup();
    renderForm();
    await user.click(screen.getByRole('button', { name: 'Add to Wishlist' }));
    expect(await screen.findByText('Item name must be at least 3 characters.')).toBeInTheDocument();
    expect(screen.getByText('Please provide a detailed description (at least 10 characters).')).toBeInTheDocument();
    expect(screen.getByText('Please select a category.')).toBeInTheDocument();
    expect(screen.getByLabelText('Gift Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Gift Name')).toHaveFocus();
    expect(calls).toHaveLength(0);
  });

  it('shows the search keyword and image URL messages and clears them when fixed', async () => {
    mockFetch(() => json({}, 500));
    const user = userEvent.setup();
    renderForm();
    await fillValid(user);
    await user.type(screen.getByLabelText(/Search Keywords/), 'ab');
    await user.type(screen.getByLabelText(/Item Image URL/), 'not a url');
    await user.click(screen.getByRole('button', { name: 'Add to Wishlist' }));
    expect(await screen.findByText('Please provide a search query for the product.')).toBeInTheDocument();
    expect(screen.getByText('Please provide a valid image URL or leave it blank.')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/Search Keywords/), 'c');
    await user.clear(screen.getByLabelText(/Item Image URL/));
    expect(screen.queryByText('Please provide a search query for the product.')).not.toBeInTheDocument();
    expect(screen.queryByText('Please provide a valid image URL or leave it blank.')).not.toBeInTheDocument();
  });

  it('posts the item with the ID token and an idempotency key, shows success and goes to /wishlist', async () => {
    setTokenProvider(async () => 'id-token-1');
    const calls = mockFetch((call) =>
      call.method === 'POST' ? json({ id: 'i1', ...(call.body as object) }, 201) : json([]),
    );
    const user = userEvent.setup();
    const { router } = renderForm();
    await fillValid(user);
    await user.type(screen.getByLabelText(/Price/), '$40');
    await user.click(screen.getByRole('button', { name: 'Add to Wishlist' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/wishlist'));
    expect(await screen.findByText('Success!')).toBeInTheDocument();
    expect(screen.getByText('Item added to your wishlist')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url).toBe('/api/wishlist');
    expect(post.body).toEqual({
      name: 'Wooden sled',
      description: 'A red wooden sled for two children',
      category: 'Toys',
      price: '$40',
      imageUrl: null,
      searchQuery: 'Wooden sled',
      shoppingUrl: 'https://www.google.com/search?tbm=shop&q=Wooden%20sled',
      features: [],
      aiGenerated: false,
      sentToSanta: false,
      userId: 'uid-123',
    });
    expect(post.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(post.headers.get('Authorization')).toBe('Bearer id-token-1');
  });

  it('keeps the form and shows the server message when the save fails', async () => {
    mockFetch(() =>
      json(
        { error: { code: 'invalid', message: 'Item name is too long.', fields: { name: 'Item name is too long.' } } },
        400,
      ),
    );
    const user = userEvent.setup();
    const { router } = renderForm();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Add to Wishlist' }));

    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to add to wishlist: Item name is too long.')).toBeInTheDocument();
    expect(screen.getAllByText('Item name is too long.').length).toBeGreaterThan(0);
    expect(router.state.location.pathname).toBe('/text-prompt');
    expect(screen.getByRole('button', { name: 'Add to Wishlist' })).toBeEnabled();
  });

  it('sends a signed-out visitor to the login screen with a toast', async () => {
    const calls = mockFetch(() => json({}));
    const user = userEvent.setup();
    const { router } = renderForm(signedOut());
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Add to Wishlist' }));
    expect(await screen.findByText('Please log in')).toBeInTheDocument();
    expect(screen.getByText('You need to be logged in to add items to your wishlist')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/firebase-login');
    expect(calls).toHaveLength(0);
  });

  it('reads a chosen image into the form and previews it', async () => {
    const user = userEvent.setup();
    renderForm();
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'sled.png', { type: 'image/png' });
    await user.upload(screen.getByLabelText('Take Photo or Choose Image'), file);
    expect(await screen.findByText('Image uploaded!')).toBeInTheDocument();
    expect(screen.getByText('Image Preview')).toBeInTheDocument();
    expect(screen.getByAltText('Preview of the gift').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(screen.getByText('Image chosen from your device')).toBeInTheDocument();
  });

  it('tells the user when an image URL cannot be loaded', async () => {
    renderForm();
    fireEvent.change(screen.getByLabelText(/Item Image URL/), { target: { value: 'https://example.com/missing.png' } });
    const preview = await screen.findByAltText('Preview of the gift', {}, { timeout: 2000 });
    fireEvent.error(preview);
    expect(await screen.findByText('Image Error')).toBeInTheDocument();
    expect(screen.getByText('Could not load the image URL. Please try a different one.')).toBeInTheDocument();
    expect(screen.queryByAltText('Preview of the gift')).not.toBeInTheDocument();
  });

  it('goes home on Cancel', async () => {
    const user = userEvent.setup();
    const { router } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(router.state.location.pathname).toBe('/');
  });
});
