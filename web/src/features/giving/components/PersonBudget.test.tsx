import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderWithProviders, signedIn } from '../../../test/utils';
import type { BudgetEntry } from '../types';
import { OtherBudgets, PersonBudget } from './PersonBudget';

const EMMA = { key: 'u:emma', displayName: 'Emma' };

function renderBudget(entries: BudgetEntry[], onCall?: Parameters<typeof mockFetch>[0]) {
  const calls = mockFetch(onCall ?? (() => json(entries)));
  renderWithProviders(<PersonBudget recipient={EMMA} />, { path: '/claims', preloadedState: signedIn() });
  return calls;
}

describe('a giver\'s budget per person', () => {
  it('shows spent and left when everything is in the budget\'s currency', async () => {
    renderBudget([{ recipient: EMMA, budget: { amount: '100.00', currency: 'EUR' }, totals: [{ amount: '75.50', currency: 'EUR' }], unpriced: 1 }]);
    const budget = await screen.findByTestId('budget');
    await waitFor(() => expect(budget).toHaveTextContent('€75.50 of €100.00 · €24.50 left'));
    expect(budget).toHaveTextContent('1 gift has no price that could be read and is not counted.');
  });

  it('says so when over budget', async () => {
    renderBudget([{ recipient: EMMA, budget: { amount: '50', currency: 'EUR' }, totals: [{ amount: '75.50', currency: 'EUR' }], unpriced: 0 }]);
    expect(await screen.findByText('€25.50 over budget')).toBeInTheDocument();
  });

  it('shows each currency on its own and says they are not added up', async () => {
    renderBudget([
      {
        recipient: EMMA,
        budget: { amount: '100.00', currency: 'EUR' },
        totals: [
          { amount: '40.00', currency: 'EUR' },
          { amount: '29.99', currency: 'USD' },
        ],
        unpriced: 0,
      },
    ]);
    const budget = await screen.findByTestId('budget');
    await waitFor(() => expect(budget).toHaveTextContent('Total: €40.00 + $29.99'));
    expect(budget).toHaveTextContent('Budget: €100.00');
    expect(budget).toHaveTextContent('not added up: Santa Wishlist knows no exchange rates');
    expect(budget).not.toHaveTextContent('left');
  });

  it('sets a budget for the person, checked like an amount', async () => {
    let entries: BudgetEntry[] = [{ recipient: EMMA, budget: null, totals: [{ amount: '20.00', currency: 'GBP' }], unpriced: 0 }];
    const calls = renderBudget([], (call) => {
      if (call.method === 'PUT') {
        entries = [{ ...entries[0], budget: { amount: '60', currency: 'GBP' } }];
        return json(entries[0]);
      }
      return json(entries);
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Set a budget for Emma' }));
    const form = screen.getByRole('form', { name: 'Budget for Emma' });
    expect(within(form).getByRole('textbox', { name: 'Currency' })).toHaveValue('GBP');
    expect(form).toHaveTextContent('Only you ever see your budgets.');
    await userEvent.type(within(form).getByRole('textbox', { name: 'Budget (GBP)' }), '-3');
    await userEvent.click(within(form).getByRole('button', { name: 'Save budget' }));
    expect(within(form).getByText('The amount must be more than zero.')).toBeInTheDocument();
    await userEvent.clear(within(form).getByRole('textbox', { name: 'Budget (GBP)' }));
    await userEvent.type(within(form).getByRole('textbox', { name: 'Budget (GBP)' }), '60');
    await userEvent.click(within(form).getByRole('button', { name: 'Save budget' }));
    expect(await screen.findByText(/£20.00 of £60.00/)).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put).toMatchObject({ url: '/api/budgets/u%3Aemma', body: { amount: '60', currency: 'GBP', displayName: 'Emma' } });
  });

  it('lists budgets of people with nothing on the shopping list', async () => {
    mockFetch(() =>
      json([
        { recipient: EMMA, budget: { amount: '10', currency: 'EUR' }, totals: [], unpriced: 0 },
        { recipient: { key: 'l:list-9', displayName: 'Grandpa' }, budget: { amount: '30.00', currency: 'EUR' }, totals: [], unpriced: 0 },
      ]),
    );
    renderWithProviders(<OtherBudgets shownKeys={['u:emma']} />, { path: '/claims', preloadedState: signedIn() });
    const others = await screen.findByRole('region', { name: 'Other budgets' });
    expect(others).toHaveTextContent('Grandpa');
    expect(others).toHaveTextContent('€0.00 of €30.00 · €30.00 left');
    expect(others).not.toHaveTextContent('Emma');
  });
});
