import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderWithProviders, signedIn } from '../../../test/utils';
import { inLanguage } from '../../../test/i18n';
import type { GivingItem, GroupGift } from '../types';
import { GroupGiftPanel } from './GroupGiftPanel';

const GIFT: GroupGift = {
  organizer: { displayName: 'Ann' },
  organizerIsMe: false,
  target: '120.00',
  currency: 'EUR',
  pledged: '75.00',
  remaining: '45.00',
  complete: false,
  pledges: [
    { displayName: 'Ann', amount: '50.00', mine: false },
    { displayName: 'Ben', amount: '25.00', mine: false },
  ],
};

function item(over: Partial<GivingItem> = {}): GivingItem {
  return { id: 'bike', name: 'Red bicycle', quantity: 1, claimed: 0, priceAmount: { amount: '120.00', currency: 'EUR' }, ...over };
}

function renderPanel(given: GivingItem) {
  return renderWithProviders(<GroupGiftPanel token="tok" item={given} />, { path: '/l/tok', preloadedState: signedIn() });
}

describe('giving together on a shared item', () => {
  it('shows the progress, who is in for how much, and that no money moves', () => {
    mockFetch(() => json({}));
    renderPanel(item({ groupGift: GIFT }));
    const panel = screen.getByRole('region', { name: 'Giving together' });
    expect(within(panel).getByText('Started by Ann')).toBeInTheDocument();
    const bar = within(panel).getByRole('progressbar', { name: 'Pledged towards Red bicycle' });
    expect(bar).toHaveAttribute('aria-valuenow', '63');
    expect(bar).toHaveAttribute('aria-valuetext', '€75.00 of €120.00');
    expect(panel).toHaveTextContent('€75.00 of €120.00 pledged · €45.00 to go');
    const pledges = within(within(panel).getByRole('list', { name: 'Who is in' })).getAllByRole('listitem');
    expect(pledges.map((li) => li.textContent)).toEqual(['Ann€50.00', 'Ben€25.00']);
    expect(panel).toHaveTextContent('No money moves through Santa Wishlist');
    // Someone else started it: the caller cannot cancel it.
    expect(within(panel).queryByRole('button', { name: 'Cancel the group gift' })).not.toBeInTheDocument();
  });

  it('checks "I\'m in for" like the server before sending, then sends the exact string', async () => {
    const calls = mockFetch(() => json({ groupGift: { ...GIFT, pledged: '100.50' } }));
    renderPanel(item({ groupGift: GIFT }));
    const field = screen.getByRole('textbox', { name: "I'm in for (EUR)" });
    await userEvent.type(field, '25.555');
    await userEvent.click(screen.getByRole('button', { name: "I'm in" }));
    expect(await screen.findByText('Too many decimals for EUR.')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(field);
    await userEvent.type(field, '0');
    await userEvent.click(screen.getByRole('button', { name: "I'm in" }));
    expect(await screen.findByText('The amount must be more than zero.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await userEvent.clear(field);
    await userEvent.type(field, '25,50');
    await userEvent.click(screen.getByRole('button', { name: "I'm in" }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'PUT', url: '/api/shared/tok/items/bike/pledge', body: { amount: '25.5' } });
    expect(await screen.findByText('€25.50 towards Red bicycle')).toBeInTheDocument();
  });

  it('shows the server\'s words under the field when it refuses the amount', async () => {
    mockFetch(() => json({ error: { code: 'invalid_request', message: 'Invalid request', fields: { amount: 'must be at most 45.00' } } }, 422));
    renderPanel(item({ groupGift: GIFT }));
    await userEvent.type(screen.getByRole('textbox', { name: "I'm in for (EUR)" }), '50');
    await userEvent.click(screen.getByRole('button', { name: "I'm in" }));
    expect(await screen.findByText('must be at most 45.00')).toBeInTheDocument();
  });

  it('lets a pledger change or withdraw, and the organizer cancel while nobody else pledged', async () => {
    const calls = mockFetch(() => new Response(null, { status: 204 }));
    const mine: GroupGift = {
      ...GIFT,
      organizerIsMe: true,
      pledged: '30.00',
      remaining: '90.00',
      pledges: [{ displayName: 'Holly Berry', amount: '30.00', mine: true }],
    };
    renderPanel(item({ groupGift: mine }));
    expect(screen.getByText('You started this group gift')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'My pledge (EUR)' })).toHaveValue('30.00');
    expect(screen.getByRole('listitem')).toHaveTextContent('You€30.00');
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw my pledge' }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['DELETE /api/shared/tok/items/bike/pledge']));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel the group gift' }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.url}`)).toContain('DELETE /api/shared/tok/items/bike/group-gift'));
  });

  it('a complete gift takes no new pledger', () => {
    mockFetch(() => json({}));
    renderPanel(item({ claimed: 1, groupGift: { ...GIFT, pledged: '120.00', remaining: '0.00', complete: true } }));
    expect(screen.getByText('Complete: €120.00 of €120.00 pledged. The gift is covered.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('starts one with the price of the units still free as the target, and the organizer\'s share', async () => {
    const calls = mockFetch(() => json({ groupGift: GIFT }, 201));
    renderPanel(item({ quantity: 3, claimed: 1, priceAmount: { amount: '29.99', currency: 'USD' } }));
    await userEvent.click(screen.getByRole('button', { name: 'Give together: Red bicycle' }));
    const dialog = screen.getByRole('dialog', { name: 'Give together: Red bicycle' });
    expect(within(dialog).getByRole('textbox', { name: 'Target (USD)' })).toHaveValue('59.98');
    expect(within(dialog).getByRole('textbox', { name: 'Currency' })).toHaveValue('USD');
    expect(dialog).toHaveTextContent('No money moves through Santa Wishlist');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /My own share/ }), '20');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start the group gift' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/shared/tok/items/bike/group-gift',
      body: { target: '59.98', currency: 'USD', amount: '20' },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('asks for the target and currency when the price cannot be read, and shows the server\'s field errors', async () => {
    const calls = mockFetch(() =>
      json({ error: { code: 'invalid_request', message: 'Invalid request', fields: { target: 'the price cannot be read: give a target' } } }, 422),
    );
    renderPanel(item({ priceAmount: null }));
    await userEvent.click(screen.getByRole('button', { name: 'Give together: Red bicycle' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('The price could not be read: enter the target.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start the group gift' }));
    expect(within(dialog).getByText('Please enter a currency code, like EUR.')).toBeInTheDocument();
    expect(within(dialog).getByText('Please enter an amount.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Currency' }), 'gbp');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Target (GBP)' }), '80');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start the group gift' }));
    expect(await within(dialog).findByText('the price cannot be read: give a target')).toBeInTheDocument();
    expect(calls[0].body).toEqual({ target: '80', currency: 'GBP' });
  });

  it('proposes the price as the target and asks for the currency when the price names none', async () => {
    mockFetch(() => json({ groupGift: GIFT }, 201));
    renderPanel(item({ quantity: 2, priceAmount: { amount: '15.50', currency: null } }));
    await userEvent.click(screen.getByRole('button', { name: 'Give together: Red bicycle' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('textbox', { name: 'Target (…)' })).toHaveValue('31.00');
    expect(within(dialog).getByRole('textbox', { name: 'Currency' })).toHaveValue('');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start the group gift' }));
    expect(within(dialog).getByText('Please enter a currency code, like EUR.')).toBeInTheDocument();
  });

  it('offers nothing on an item already fully claimed', () => {
    mockFetch(() => json({}));
    renderPanel(item({ claimed: 1 }));
    expect(screen.queryByRole('button', { name: /Give together/ })).not.toBeInTheDocument();
  });

  it('speaks German, with German amounts', async () => {
    await inLanguage('de');
    mockFetch(() => json({}));
    renderPanel(item({ groupGift: GIFT }));
    expect(screen.getByRole('region', { name: 'Gemeinsames Geschenk' })).toHaveTextContent('75,00 € von 120,00 € zugesagt · noch 45,00 €');
  });
});
