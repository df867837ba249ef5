import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderWithProviders, signedIn } from '../../../test/utils';
import type { RevealedGift } from '../types';
import { ThanksAction } from './ThanksAction';

const PAST = '2025-12-24T00:00:00Z';
const FUTURE = '2999-12-24T00:00:00Z';

function renderAction(claims: RevealedGift[] | undefined) {
  return renderWithProviders(<ThanksAction item={{ id: 'bike', name: 'Red bicycle', claims }} />, {
    path: '/wishlist',
    preloadedState: signedIn(),
  });
}

describe('"Say thank you" on a revealed gift', () => {
  it('shows nothing before a gift is revealed', () => {
    mockFetch(() => json({}));
    renderAction(undefined);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    renderAction([{ displayName: 'Ann', quantity: 1, revealedAt: FUTURE, thankedAt: null }]);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('sends the message to the revealed givers, claims and pledges alike', async () => {
    const calls = mockFetch(() => json({ message: 'Thank you!', at: '2026-12-26T10:00:00Z', thanked: 2 }, 201));
    renderAction([
      { displayName: 'Ann', quantity: 1, revealedAt: PAST, thankedAt: null },
      { displayName: 'Ben', quantity: 0, amount: '25.00', currency: 'EUR', revealedAt: PAST, thankedAt: null },
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Say thank you for Red bicycle' }));
    const dialog = screen.getByRole('dialog', { name: 'Thank you for Red bicycle' });
    expect(dialog).toHaveTextContent('Your message goes to Ann and Ben.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send thanks' }));
    expect(within(dialog).getByText('Please write a message.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Your message' }), '  Thank you!  ');
    expect(dialog).toHaveTextContent('14 of 500 characters');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send thanks' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/wishlist/bike/thanks', body: { message: 'Thank you!' } });
    expect(await screen.findByText('Your thanks went to 2 givers.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says what the server answered when nothing is left to thank for', async () => {
    mockFetch(() => json({ error: { code: 'already_thanked', message: 'Every giver of this item was thanked already' } }, 409));
    renderAction([{ displayName: 'Ann', quantity: 1, revealedAt: PAST, thankedAt: null }]);
    await userEvent.click(screen.getByRole('button', { name: 'Say thank you for Red bicycle' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Your message' }), 'Thanks');
    await userEvent.click(screen.getByRole('button', { name: 'Send thanks' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Every giver of this item was thanked already');
  });

  it('shows "Thanked" once every revealed giver was thanked', () => {
    mockFetch(() => json({}));
    renderAction([
      { displayName: 'Ann', quantity: 1, revealedAt: PAST, thankedAt: '2026-12-26T10:00:00Z' },
      { displayName: 'Cy', quantity: 1, revealedAt: FUTURE, thankedAt: null },
    ]);
    expect(screen.getByTestId('thanked')).toHaveTextContent('Thanked');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
