import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { authLoading, json, mockFetch, renderRoutes, signedIn, signedOut, TEST_USER } from '../test/utils';
import { PAGE_EVENTS } from '../lib/events';
import { routes } from './router';

// The login screen starts the Firebase SDK; these tests are about routing and the shell.
vi.mock('../features/auth/bootstrap', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../features/auth/bootstrap')>()),
  loadFirebase: vi.fn(() => Promise.resolve()),
}));

/** The page-wide events of docs/spec.md, section 3, sent the way a page script would. */
function pageEvent(name: string, detail?: unknown) {
  window.dispatchEvent(new CustomEvent(name, { detail }));
}

function renderApp(path: string, state = signedOut()) {
  return renderRoutes(routes, { initialEntry: path, preloadedState: state });
}

beforeEach(() => {
  mockFetch((call) => (call.url.startsWith('/api/wishlist') ? json([]) : json({}, 404)));
});

describe('routes', () => {
  it('shows the 404 page for an unknown path', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('404 Page Not Found'));
  });

  it('redirects /scan to the camera in barcode mode and highlights Camera', async () => {
    const { router } = renderApp('/scan');
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/camera?mode=scan'));
    expect(await screen.findByText('Barcode mode')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Camera' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
  });

  it.each(['/login', '/firebase-login'])('%s shows the login screen', async (path) => {
    renderApp(path);
    expect(await screen.findByRole('tab', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Sign Up' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Having login issues?' })).toHaveAttribute('href', '/firebase-debug');
    expect(screen.getByText('By signing in, you agree to our Terms of Service and Privacy Policy.')).toBeInTheDocument();
  });

  it.each(['/camera', '/edit-photo', '/gift-options', '/confirmation', '/share-options', '/image-recognition', '/firebase-debug'])(
    '%s is open to signed-out visitors',
    async (path) => {
      renderApp(path);
      expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
      expect(screen.queryByText('Authentication Required')).not.toBeInTheDocument();
    },
  );
});

describe('protected pages', () => {
  it('shows a spinner while auth is loading', async () => {
    renderApp('/wishlist', authLoading());
    expect(await screen.findByRole('status', { name: 'Checking sign-in' })).toBeInTheDocument();
    expect(screen.queryByText('Authentication Required')).not.toBeInTheDocument();
  });

  it.each(['/wishlist', '/text-prompt'])('asks a signed-out visitor of %s to log in and remembers the page', async (path) => {
    const user = userEvent.setup();
    const { router } = renderApp(path);
    const dialog = await screen.findByRole('dialog', { name: 'Authentication Required' });
    expect(within(dialog).getByText('You need to log in to access this page.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Log In Now' }));
    expect(sessionStorage.getItem('redirectAfterLogin')).toBe(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/firebase-login'));
  });

  it('Back to Home leaves the dialog for /', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/wishlist');
    await user.click(await screen.findByRole('button', { name: 'Back to Home' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sessionStorage.getItem('redirectAfterLogin')).toBeNull();
  });

  it('shows the page to a signed-in user', async () => {
    renderApp('/text-prompt', signedIn());
    expect(await screen.findByRole('heading', { name: 'Add to Wishlist' })).toBeInTheDocument();
  });

  it('sends a signed-in user away from the login screen to the remembered page', async () => {
    sessionStorage.setItem('redirectAfterLogin', '/text-prompt');
    const { router } = renderApp('/firebase-login', signedIn());
    await waitFor(() => expect(router.state.location.pathname).toBe('/text-prompt'));
    expect(sessionStorage.getItem('redirectAfterLogin')).toBeNull();
  });
});

describe('shell', () => {
  it('offers Log In to signed-out visitors', async () => {
    renderApp('/');
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/firebase-login');
    expect(within(header).getByRole('link', { name: /Wishlist, 0 items/ })).toHaveAttribute('href', '/wishlist');
  });

  it('shows the avatar menu with name, email and Log Out', async () => {
    const user = userEvent.setup();
    renderApp('/', signedIn());
    await user.click(screen.getByRole('button', { name: 'Account menu for Holly Berry' }));
    const menu = screen.getByRole('menu');
    expect(within(menu).getByText('Holly Berry')).toBeInTheDocument();
    expect(within(menu).getByText('holly@example.com')).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Log Out' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'My gift shopping list' })).toHaveAttribute('href', '/claims');
  });

  it('falls back to username, No email provided and the letter U', async () => {
    const user = userEvent.setup();
    renderApp('/', signedIn({ ...TEST_USER, displayName: null, email: null, uid: 'abc' }));
    const button = screen.getByRole('button', { name: 'Account menu for abc' });
    expect(button).toHaveTextContent('U');
    await user.click(button);
    expect(screen.getByText('No email provided')).toBeInTheDocument();
  });

  it('counts the cached wishlist in the badge; update-wishlist-count refreshes it from the server', async () => {
    let items = [{ id: '1' }, { id: '2' }];
    mockFetch(() => json(items));
    renderApp('/', signedIn());
    expect(await screen.findByTestId('wishlist-count')).toHaveTextContent('2');
    items = [1, 2, 3, 4, 5].map((n) => ({ id: String(n) }));
    act(() => pageEvent(PAGE_EVENTS.updateWishlistCount, 5));
    await waitFor(() => expect(screen.getByTestId('wishlist-count')).toHaveTextContent('5'));
    expect(screen.getByRole('link', { name: 'Wishlist, 5 items' })).toBeInTheDocument();
  });

  it('shows a show-toast message at the bottom for 3 seconds', async () => {
    renderApp('/');
    vi.useFakeTimers();
    try {
      act(() => pageEvent(PAGE_EVENTS.showToast, 'Added to Wishlist'));
      expect(screen.getByTestId('shell-toast')).toHaveTextContent('Added to Wishlist');
      act(() => vi.advanceTimersByTime(2900));
      expect(screen.getByTestId('shell-toast')).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(200));
      expect(screen.queryByTestId('shell-toast')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the Santa overlay with 50 snow particles for 3.5 seconds', async () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    renderApp('/');
    vi.useFakeTimers();
    try {
      act(() => pageEvent(PAGE_EVENTS.showSantaAnimation));
      const overlay = screen.getByTestId('santa-overlay');
      expect(within(overlay).getByText('Ho Ho Ho!')).toBeInTheDocument();
      expect(within(overlay).getByText('Santa received your gift request!')).toBeInTheDocument();
      const particles = overlay.querySelectorAll<HTMLElement>('.santa-overlay__particle');
      expect(particles).toHaveLength(50);
      for (const p of particles) {
        const size = parseFloat(p.style.width);
        expect(size).toBeGreaterThanOrEqual(5);
        expect(size).toBeLessThanOrEqual(15);
        expect(parseFloat(p.style.animationDelay)).toBeLessThanOrEqual(5);
        const duration = parseFloat(p.style.animationDuration);
        expect(duration).toBeGreaterThanOrEqual(5);
        expect(duration).toBeLessThanOrEqual(10);
      }
      expect(play).toHaveBeenCalled();
      act(() => vi.advanceTimersByTime(3600));
      expect(screen.queryByTestId('santa-overlay')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});
