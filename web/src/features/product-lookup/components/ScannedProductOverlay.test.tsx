import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { json, mockFetch, renderWithProviders, signedIn, signedOut } from '../../../test/utils';
import ScannedProductOverlay from './ScannedProductOverlay';

const FRAME = 'data:image/jpeg;base64,ZnJhbWU=';
const REINDEER = {
  code: '5901234123457',
  name: 'Plush Reindeer Rudolph',
  brand: 'North Pole Toys',
  description: '',
  category: 'Toys',
  imageUrl: 'http://127.0.0.1:8096/images/openproductsfacts/590/front.jpg',
  source: 'openproductsfacts',
};

function renderOverlay(state = signedIn()) {
  const onDecorate = vi.fn();
  const save = vi.fn().mockResolvedValue({ id: 'w1' });
  const view = renderWithProviders(<ScannedProductOverlay code={REINDEER.code} frame={FRAME} onDecorate={onDecorate} save={save} />, {
    path: '/camera',
    preloadedState: state,
  });
  return { ...view, onDecorate, save };
}

describe('the scanned product overlay', () => {
  it('names the product, shows our stored picture and adds it with that picture', async () => {
    const calls = mockFetch((call) =>
      call.url === '/api/lookup/barcode' ? json(REINDEER) : json({ imageUrl: '/media/uid-123/reindeer.jpg' }, 201),
    );
    const user = userEvent.setup();
    const { save } = renderOverlay();
    const dialog = screen.getByRole('dialog', { name: 'Product Recognition' });
    expect(await within(dialog).findByRole('heading', { name: 'Plush Reindeer Rudolph' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('BrandNorth Pole Toys');
    expect(dialog).toHaveTextContent('CategoryToys');
    await waitFor(() => expect(screen.getByTestId('scanned-product-photo')).toHaveAttribute('src', '/media/uid-123/reindeer.jpg'));
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      ['/api/lookup/barcode', { code: REINDEER.code }],
      ['/api/lookup/barcode/image', { code: REINDEER.code }],
    ]);

    await user.click(within(dialog).getByRole('button', { name: 'Add to Wishlist' }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0][0]).toEqual({
      name: 'Plush Reindeer Rudolph',
      description: 'Plush Reindeer Rudolph by North Pole Toys (barcode 5901234123457)',
      category: 'Toys',
      price: null,
      imageUrl: '/media/uid-123/reindeer.jpg',
      searchQuery: 'Plush Reindeer Rudolph',
      features: [],
      aiGenerated: false,
      sentToSanta: false,
    });
    expect(await screen.findByRole('button', { name: 'Added' })).toBeDisabled();
  });

  it('Decorate keeps the editor flow with the product name', async () => {
    mockFetch((call) => (call.url === '/api/lookup/barcode' ? json(REINDEER) : json({ imageUrl: '/media/x.jpg' }, 201)));
    const user = userEvent.setup();
    const { onDecorate } = renderOverlay();
    await screen.findByRole('heading', { name: 'Plush Reindeer Rudolph' });
    await user.click(screen.getByRole('button', { name: 'Decorate with Stickers' }));
    expect(onDecorate).toHaveBeenCalledWith('Plush Reindeer Rudolph');
  });

  it('says plainly when the code is unknown and offers the text form with the code', async () => {
    mockFetch(() => json({ error: { code: 'product_not_found', message: 'We could not find this product.' } }, 404));
    const user = userEvent.setup();
    renderOverlay();
    expect(await screen.findByTestId('product-unknown')).toHaveTextContent("We don't know this product (barcode 5901234123457)");
    expect(screen.queryByRole('button', { name: 'Add to Wishlist' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Describe It Instead' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/text-prompt?barcode=5901234123457');
  });

  it('stores no picture for a visitor, who is asked to log in to add', async () => {
    const calls = mockFetch(() => json(REINDEER));
    renderOverlay(signedOut());
    expect(await screen.findByRole('button', { name: 'Log in to Add' })).toBeInTheDocument();
    expect(screen.getByTestId('scanned-product-photo')).toHaveAttribute('src', FRAME);
    expect(calls.map((c) => c.url)).toEqual(['/api/lookup/barcode']);
  });
});
