import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, signedOut } from '../../../test/utils';
import LoginPage from './LoginPage';

const actions = {
  signInWithEmail: vi.fn(() => Promise.resolve()),
  signUpWithEmail: vi.fn(() => Promise.resolve()),
  signInWithGoogle: vi.fn(() => Promise.resolve()),
  resetPassword: vi.fn(() => Promise.resolve()),
  logout: vi.fn(() => Promise.resolve()),
};

vi.mock('../useAuthActions', () => ({ useAuthActions: () => actions }));
vi.mock('../bootstrap', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../bootstrap')>()),
  loadFirebase: vi.fn(() => Promise.resolve()),
}));

function renderLogin() {
  return renderWithProviders(<LoginPage />, { path: '/firebase-login', preloadedState: signedOut() });
}

beforeEach(() => Object.values(actions).forEach((a) => a.mockClear()));

describe('Login screen', () => {
  it('asks for both email and password before signing in', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.type(screen.getByLabelText('Email'), 'a@b.example');
    await user.click(screen.getByRole('button', { name: 'Sign In with Email' }));
    expect(await screen.findByText('Missing fields')).toBeInTheDocument();
    expect(screen.getByText('Please provide both email and password')).toBeInTheDocument();
    expect(actions.signInWithEmail).not.toHaveBeenCalled();
  });

  it('signs in with email and password', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.type(screen.getByLabelText('Email'), 'a@b.example');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In with Email' }));
    expect(actions.signInWithEmail).toHaveBeenCalledWith('a@b.example', 'secret1');
  });

  it('signs in with Google from either tab', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.click(screen.getByRole('button', { name: 'Sign In with Google' }));
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.click(screen.getByRole('button', { name: 'Sign Up with Google' }));
    expect(actions.signInWithGoogle).toHaveBeenCalledTimes(2);
  });

  it('signs up with an optional display name and shows the password hint', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Missing fields')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/Display Name/), 'Elf Ernie');
    await user.type(screen.getByLabelText('Email'), 'ernie@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(actions.signUpWithEmail).toHaveBeenCalledWith('ernie@example.com', 'secret1', 'Elf Ernie');
  });

  it('switches to the reset form and back to sign in after sending', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.click(screen.getByRole('button', { name: 'Forgot Password?' }));
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'a@b.example');
    await user.click(screen.getByRole('button', { name: 'Send Reset Instructions' }));
    expect(actions.resetPassword).toHaveBeenCalledWith('a@b.example');
    await waitFor(() => expect(screen.getByLabelText('Password')).toBeInTheDocument());
  });

  it('offers Back to Sign In from the reset form', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.click(screen.getByRole('button', { name: 'Forgot Password?' }));
    await user.click(screen.getByRole('button', { name: 'Back to Sign In' }));
    expect(screen.getByRole('button', { name: 'Sign In with Email' })).toBeInTheDocument();
  });

  it('stays on the form when a sign-in fails (the toast tells why)', async () => {
    actions.signInWithEmail.mockRejectedValueOnce(new Error('auth/invalid-credential'));
    const user = userEvent.setup();
    renderLogin();
    await user.type(screen.getByLabelText('Email'), 'a@b.example');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign In with Email' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign In with Email' })).toBeEnabled());
    expect(screen.getByLabelText('Password')).toHaveValue('wrong-password');
  });
});
