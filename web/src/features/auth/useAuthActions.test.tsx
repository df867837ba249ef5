import { act, screen, waitFor } from '@testing-library/react';
import { renderWithProviders, signedOut } from '../../test/utils';
import { useAuthActions, type AuthActions } from './useAuthActions';

const sdk = vi.hoisted(() => ({
  signInWithEmailAndPassword: vi.fn(),
  createUserWithEmailAndPassword: vi.fn(),
  updateProfile: vi.fn(),
  sendPasswordResetEmail: vi.fn(),
  signOut: vi.fn(),
  signInWithPopup: vi.fn(),
  GoogleAuthProvider: class {
    scopes: string[] = [];
    addScope(s: string) {
      this.scopes.push(s);
    }
  },
  browserPopupRedirectResolver: { resolver: true },
}));

vi.mock('firebase/auth', () => sdk);
vi.mock('./firebase', () => ({ firebaseAuth: () => ({ name: 'fake-auth' }) }));
vi.mock('./bootstrap', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./bootstrap')>()),
  loadFirebase: vi.fn(() => Promise.resolve()),
}));

function firebaseError(code: string) {
  return Object.assign(new Error(`Firebase: Error (${code}).`), { code });
}

let actions: AuthActions;
function Probe() {
  actions = useAuthActions();
  return null;
}

function setup() {
  return renderWithProviders(<Probe />, { path: '/firebase-login', preloadedState: signedOut() });
}

beforeEach(() => {
  Object.values(sdk).forEach((f) => typeof f === 'function' && 'mockReset' in f && f.mockReset());
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

describe('useAuthActions', () => {
  it('signs in with email and clears loading afterwards', async () => {
    sdk.signInWithEmailAndPassword.mockResolvedValue({});
    const { store } = setup();
    await act(() => actions.signInWithEmail(' a@b.example ', 'pw1234'));
    expect(sdk.signInWithEmailAndPassword).toHaveBeenCalledWith({ name: 'fake-auth' }, 'a@b.example', 'pw1234');
    expect(store.getState().auth.loading).toBe(false);
  });

  it('shows a destructive Authentication Error toast and rethrows', async () => {
    sdk.signInWithEmailAndPassword.mockRejectedValue(firebaseError('auth/invalid-credential'));
    setup();
    await act(() => expect(actions.signInWithEmail('a@b.example', 'nope12')).rejects.toThrow());
    expect(await screen.findByRole('alert')).toHaveTextContent('Authentication Error');
    expect(screen.getByText('The email or password is incorrect.')).toBeInTheDocument();
  });

  it('sends an unauthorized domain to /firebase-debug after 1.5 s', async () => {
    sdk.signInWithPopup.mockRejectedValue(firebaseError('auth/unauthorized-domain'));
    const { router } = setup();
    await act(() => expect(actions.signInWithGoogle()).rejects.toThrow());
    expect(screen.getByText('Domain Not Authorized')).toBeInTheDocument();
    expect(screen.getByText('Redirecting to debug page with instructions...')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/firebase-login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/firebase-debug'), { timeout: 2500 });
  });

  it('signs in with a Google popup asking for the profile scope', async () => {
    sdk.signInWithPopup.mockResolvedValue({});
    setup();
    await act(() => actions.signInWithGoogle());
    const [, provider, resolver] = sdk.signInWithPopup.mock.calls[0];
    expect((provider as { scopes: string[] }).scopes).toEqual(['profile']);
    expect(resolver).toBe(sdk.browserPopupRedirectResolver);
  });

  it('sets the display name after sign-up only when one was given, and refreshes the token to carry it', async () => {
    const getIdToken = vi.fn(async (_force?: boolean) => 'token-with-name');
    const user = { uid: 'n1', email: 'n@x.example', displayName: null, photoURL: null, providerData: [], getIdToken };
    sdk.createUserWithEmailAndPassword.mockResolvedValue({ user });
    sdk.updateProfile.mockImplementation(async (u: typeof user, p: { displayName: string }) => {
      u.displayName = p.displayName as unknown as null;
    });
    const { store } = setup();
    await act(() => actions.signUpWithEmail('n@x.example', 'pw1234', '  '));
    expect(sdk.updateProfile).not.toHaveBeenCalled();
    expect(getIdToken).not.toHaveBeenCalled();
    await act(() => actions.signUpWithEmail('n@x.example', 'pw1234', ' Nick '));
    expect(sdk.updateProfile).toHaveBeenCalledWith(user, { displayName: 'Nick' });
    expect(getIdToken).toHaveBeenCalledWith(true);
    expect(getIdToken.mock.invocationCallOrder[0]).toBeGreaterThan(sdk.updateProfile.mock.invocationCallOrder[0]);
    expect(store.getState().auth.user?.displayName).toBe('Nick');
  });

  it('confirms a password reset email', async () => {
    sdk.sendPasswordResetEmail.mockResolvedValue(undefined);
    setup();
    await act(() => actions.resetPassword('a@b.example'));
    expect(screen.getByText('Password Reset Email Sent')).toBeInTheDocument();
    expect(screen.getByText('Check your email inbox for password reset instructions')).toBeInTheDocument();
  });

  it('reports a failed logout without throwing', async () => {
    sdk.signOut.mockRejectedValue(new Error(''));
    setup();
    await act(() => actions.logout());
    expect(screen.getByText('Logout Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to log out')).toBeInTheDocument();
  });
});
