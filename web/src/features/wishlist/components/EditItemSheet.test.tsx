import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { anItem } from '../../../test/items';
import { json, mockFetch, renderWithProviders, signedIn } from '../../../test/utils';
import type { WishlistItem } from '../types';
import WishlistPage from './WishlistPage';

const BIKE: WishlistItem = anItem({ id: 'bike', price: '$120', listId: 'l1' });

function renderPage() {
  return renderWithProviders(<WishlistPage />, { path: '/wishlist', preloadedState: signedIn() });
}

describe('edit sheet', () => {
  it('marks an item most wanted, sets its quantity and notes with one PATCH of what changed', async () => {
    let item = BIKE;
    const calls = mockFetch((call) => {
      if (call.method === 'PATCH') {
        item = { ...item, ...(call.body as Partial<WishlistItem>) };
        return json(item);
      }
      return json([item]);
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Red bicycle' }));
    const sheet = screen.getByRole('dialog', { name: 'Edit Red bicycle' });
    await userEvent.click(within(sheet).getByRole('radio', { name: 'Most wanted' }));
    const qty = within(sheet).getByLabelText('How many');
    await userEvent.clear(qty);
    await userEvent.type(qty, '2');
    await userEvent.type(within(sheet).getByLabelText(/Notes/), 'Size 24 inch');
    await userEvent.click(within(sheet).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.url).toBe('/api/wishlist/bike');
    expect(patch?.body).toEqual({ priority: 3, quantity: 2, notes: 'Size 24 inch' });
    const card = await screen.findByTestId('wishlist-item');
    await waitFor(() => expect(card).toHaveTextContent('★ Most wanted'));
    expect(card).toHaveTextContent('Wants 2');
    expect(card).toHaveTextContent('Size 24 inch');
  });

  it("shows the server's message beside the field and keeps the sheet open", async () => {
    mockFetch((call) =>
      call.method === 'PATCH'
        ? json({ error: { code: 'validation_failed', message: 'Invalid', fields: { quantity: 'Quantity must be between 1 and 99.' } } }, 422)
        : json([BIKE]),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Red bicycle' }));
    const sheet = screen.getByRole('dialog', { name: 'Edit Red bicycle' });
    const qty = within(sheet).getByLabelText('How many');
    await userEvent.clear(qty);
    await userEvent.type(qty, '100');
    await userEvent.click(within(sheet).getByRole('button', { name: 'Save' }));
    expect(await within(sheet).findByText('Quantity must be between 1 and 99.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit Red bicycle' })).toBeInTheDocument();
  });

  it('closes without a request when nothing changed', async () => {
    const calls = mockFetch(() => json([BIKE]));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Red bicycle' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });
});
