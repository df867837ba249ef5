import { screen } from '@testing-library/react';
import { renderWithProviders, signedIn, signedOut } from '../../../test/utils';
import { daysUntilChristmas } from '../../../lib/christmas';
import { storeGiftDetails } from '../flow';
import { NORTH_POLE_FACTS } from '../../../lib/facts';
import ConfirmationPage from './ConfirmationPage';

describe('confirmation', () => {
  it('names the gift, counts the days and shows North Pole News', () => {
    storeGiftDetails({ name: 'Racing Car', description: 'A fast red toy car.', price: '$24.99' }, true);
    renderWithProviders(<ConfirmationPage />, { path: '/confirmation', preloadedState: signedIn() });
    expect(screen.getByRole('heading', { level: 1, name: 'Racing Car Sent!' })).toBeInTheDocument();
    expect(screen.getByText(/sent to the North Pole\. Santa and the elves will review it soon/)).toBeInTheDocument();
    const days = daysUntilChristmas();
    if (days > 0) expect(screen.getByTestId('confirmation-days')).toHaveTextContent(`${days}`);
    expect(screen.getByRole('heading', { name: 'North Pole News' })).toBeInTheDocument();
    expect(NORTH_POLE_FACTS.some((f) => screen.queryByText(f))).toBe(true);
    expect(screen.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Send Another Gift' })).toHaveAttribute('href', '/camera');
    expect(screen.queryByText('Save Your Gifts for Next Time')).not.toBeInTheDocument();
  });

  it('invites a signed-out visitor to log in', () => {
    renderWithProviders(<ConfirmationPage />, { path: '/confirmation', preloadedState: signedOut() });
    expect(screen.getByRole('heading', { level: 1, name: 'Wishlist Item Sent!' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Save Your Gifts for Next Time' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  });
});
