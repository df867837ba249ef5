import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { json, mockFetch, renderWithProviders, signedIn } from '../../../test/utils';
import LinkImport from './LinkImport';

const ITEM = {
  name: 'Wooden Railway Set',
  description: 'A beech-wood railway with a tunnel.',
  category: 'Toys',
  price: '$49.95',
  currency: 'USD',
  imageUrl: '/media/uid-123/railway.png',
  shoppingUrl: 'https://shop.example/railway',
  source: 'jsonld',
};

function renderImport(entry = '/text-prompt') {
  const onFill = vi.fn();
  renderWithProviders(<LinkImport onFill={onFill} />, { path: '/text-prompt', initialEntry: entry, preloadedState: signedIn() });
  return onFill;
}

describe('Paste a shop link', () => {
  it('imports a pasted link and fills the fields, its link as the shopping URL', async () => {
    const calls = mockFetch(() => json(ITEM));
    const user = userEvent.setup();
    const onFill = renderImport();
    await user.type(screen.getByLabelText(/Paste a shop link/), 'https://shop.example/railway');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(onFill).toHaveBeenCalled());
    expect(calls[0]).toMatchObject({ url: '/api/lookup/url', method: 'POST', body: { url: 'https://shop.example/railway' } });
    expect(onFill).toHaveBeenCalledWith({
      name: ITEM.name,
      description: ITEM.description,
      category: 'Toys',
      price: '$49.95',
      imageUrl: ITEM.imageUrl,
      shoppingUrl: ITEM.shoppingUrl,
    });
    expect(screen.getByText(/Filled in from shop.example/)).toBeInTheDocument();
  });

  it('shows the server’s words when a link is refused', async () => {
    mockFetch(() =>
      json({ error: { code: 'url_not_allowed', message: 'This link points to a private or internal network address and cannot be imported.' } }, 400),
    );
    const user = userEvent.setup();
    const onFill = renderImport();
    await user.type(screen.getByLabelText(/Paste a shop link/), 'http://10.0.0.1/');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('private or internal network address');
    expect(onFill).not.toHaveBeenCalled();
  });

  it('imports the link a share target visit carries, at once', async () => {
    const calls = mockFetch(() => json(ITEM));
    const onFill = renderImport(`/text-prompt?title=Railway&text=${encodeURIComponent('Look https://shop.example/railway')}`);
    await waitFor(() => expect(onFill).toHaveBeenCalledTimes(1));
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toEqual({ url: 'https://shop.example/railway' });
    expect(screen.getByLabelText(/Paste a shop link/)).toHaveValue('https://shop.example/railway');
  });

  it('keeps a scanned code as the search keywords', async () => {
    const calls = mockFetch(() => json(ITEM));
    const onFill = renderImport('/text-prompt?barcode=4006381333931');
    await waitFor(() => expect(onFill).toHaveBeenCalledWith({ searchQuery: '4006381333931' }));
    expect(calls).toHaveLength(0);
  });
});
