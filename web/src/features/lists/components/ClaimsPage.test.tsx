import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { anItem } from '../../../test/items';
import { json, mockFetch, renderWithProviders, signedIn } from '../../../test/utils';
import type { ClaimEntry } from '../types';
import ClaimsPage, { groupByPerson } from './ClaimsPage';

function entry(owner: string, name: string, over: Partial<ClaimEntry> = {}): ClaimEntry {
  return {
    quantity: 1,
    purchased: false,
    list: { name: 'Christmas', ownerName: owner, token: `tok-${owner}` },
    item: anItem({
      id: `id-${name}`,
      name,
      description: `${name} description`,
      price: '$5',
      searchQuery: name,
      listId: `list-${owner}`,
      quantity: 2,
    }),
    ...over,
  };
}

describe('my gift shopping list /claims', () => {
  it('groups the claims by person and checks one off as purchased', async () => {
    let claims = [entry('Tom', 'Bike', { quantity: 2 }), entry('Ann', 'Book'), entry('Tom', 'Socks', { purchased: true })];
    const calls = mockFetch((call) => {
      if (call.url === '/api/budgets') return json([]);
      if (call.method === 'PUT') {
        claims = claims.map((c) => (c.item.name === 'Bike' ? { ...c, purchased: true } : c));
        return json({ claimed: 2, mine: 2, purchased: true });
      }
      return json(claims);
    });
    renderWithProviders(<ClaimsPage />, { path: '/claims', preloadedState: signedIn() });
    const tom = await screen.findByRole('region', { name: 'For Tom' });
    const ann = screen.getByRole('region', { name: 'For Ann' });
    expect(within(tom).getAllByTestId('claim-row').map((r) => r.textContent)).toEqual([
      expect.stringContaining('Bike × 2'),
      expect.stringContaining('Socks'),
    ]);
    expect(within(ann).getByText('Book')).toBeInTheDocument();
    expect(within(tom).getByText('1 of 2 bought')).toBeInTheDocument();
    expect(within(tom).getAllByRole('link', { name: 'Christmas' })[0]).toHaveAttribute('href', '/l/tok-Tom');

    await userEvent.click(within(tom).getByRole('checkbox', { name: 'Purchased: Bike' }));
    await waitFor(() => expect(within(tom).getByText('2 of 2 bought')).toBeInTheDocument());
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/api/shared/tok-Tom/items/id-Bike/claim');
    expect(put?.body).toEqual({ quantity: 2, purchased: true });
  });

  it('keeps a claim on a revoked link readable but not changeable', async () => {
    mockFetch((call) =>
      json(call.url === '/api/budgets' ? [] : [entry('Tom', 'Bike', { list: { name: 'Christmas', ownerName: 'Tom', token: null } })]),
    );
    renderWithProviders(<ClaimsPage />, { path: '/claims', preloadedState: signedIn() });
    expect(await screen.findByRole('checkbox', { name: 'Purchased: Bike' })).toBeDisabled();
    const row = within(screen.getByRole('region', { name: 'For Tom' })).getByTestId('claim-row');
    expect(row).toHaveTextContent('Bike');
    expect(row).toHaveTextContent('Christmas');
    expect(row).toHaveTextContent('The link to this list changed: ask Tom for the new one.');
    expect(row.querySelector('a')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Christmas' })).not.toBeInTheDocument();
  });

  it('keeps two people of the same name apart, by their recipient key', () => {
    const tomA = { key: 'u:tom-a', displayName: 'Tom' };
    const tomB = { key: 'l:list-b', displayName: 'Tom' };
    const groups = groupByPerson([
      entry('Tom', 'Bike', { recipient: tomA }),
      entry('Ann', 'Kite', { recipient: tomB }),
      entry('Tom', 'Socks', { recipient: tomA }),
      entry('Ann', 'Book'),
    ]);
    expect(groups.map((g) => [g.key, g.person, g.entries.map((e) => e.item.name)])).toEqual([
      ['u:tom-a', 'Tom', ['Bike', 'Socks']],
      ['l:list-b', 'Tom', ['Kite']],
      ['owner:Ann', 'Ann', ['Book']],
    ]);
  });

  it('says what to do when nothing is claimed yet', async () => {
    mockFetch(() => json([]));
    renderWithProviders(<ClaimsPage />, { path: '/claims', preloadedState: signedIn() });
    expect(await screen.findByText(/Nothing claimed yet/)).toBeInTheDocument();
  });

  it('groups by the person given to, with the pledges, totals against a budget and the way to "Gifts I gave"', async () => {
    const emma = { key: 'l:list-emma', displayName: 'Emma Rose' };
    mockFetch((call) => {
      if (call.url === '/api/budgets') {
        return json([
          { recipient: emma, budget: { amount: '100.00', currency: 'EUR' }, totals: [{ amount: '55.00', currency: 'EUR' }], unpriced: 0 },
          { recipient: { key: 'u:gramps', displayName: 'Grandpa' }, budget: { amount: '20.00', currency: 'EUR' }, totals: [], unpriced: 0 },
        ]);
      }
      return json([
        // A list Tom keeps for Emma: the shopping list is by Emma, not Tom.
        entry('Tom', 'Bike', { recipient: emma, amount: { amount: '5.00', currency: 'USD' } }),
        entry('Tom', 'Lego', {
          quantity: 0,
          recipient: emma,
          pledge: { amount: '50.00', currency: 'EUR', groupGift: { target: '120.00', pledged: '75.00', complete: false } },
        }),
      ]);
    });
    renderWithProviders(<ClaimsPage />, { path: '/claims', preloadedState: signedIn() });
    const group = await screen.findByRole('region', { name: 'For Emma Rose' });
    expect(screen.queryByRole('region', { name: 'For Tom' })).not.toBeInTheDocument();
    expect(await within(group).findByTestId('pledge-line')).toHaveTextContent("Together: you're in for €50.00 · €75.00 of €120.00 pledged");
    // Only a pledge: nothing of the caller's own to mark bought.
    expect(within(group).getAllByRole('checkbox')).toHaveLength(1);
    expect(group).toHaveTextContent('0 of 1 bought');
    expect(await within(group).findByText(/€55.00 of €100.00/)).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Other budgets' })).toHaveTextContent('Grandpa');
    expect(await screen.findByRole('link', { name: 'Gifts I gave' })).toHaveAttribute('href', '/gifts/given');
  });
});
