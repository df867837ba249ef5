import { render, type RenderOptions } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { makeStore, type AppStore, type RootState } from '../app/store';
import type { AuthUser } from '../lib/session';
import { FeatureBridges } from '../app/FeatureBridges';
import { Toaster } from '../app/shell/Toaster';
import { ShellToast } from '../app/shell/ShellToast';

export const TEST_USER: AuthUser = {
  uid: 'uid-123',
  email: 'holly@example.com',
  displayName: 'Holly Berry',
  photoURL: null,
  providerIds: ['password'],
};

/** Auth state slices for preloadedState. */
export function signedIn(user: AuthUser = TEST_USER): Pick<RootState, 'auth'> {
  return { auth: { user, loading: false, initialized: true, unavailableReason: null } };
}

export function signedOut(): Pick<RootState, 'auth'> {
  return { auth: { user: null, loading: false, initialized: true, unavailableReason: null } };
}

export function authLoading(): Pick<RootState, 'auth'> {
  return { auth: { user: null, loading: true, initialized: false, unavailableReason: null } };
}

/** Shows where the router is, so tests can assert navigation. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

interface RouteRenderOptions extends Omit<RenderOptions, 'queries'> {
  /** The route the element is mounted at (default '/'). */
  path?: string;
  initialEntry?: string;
  preloadedState?: Partial<RootState>;
  store?: AppStore;
  /** Extra routes, e.g. targets of navigation. */
  routes?: RouteObject[];
}

/**
 * Renders `element` inside the store and a memory router. Any other path renders a probe
 * showing the location, so `screen.getByTestId('location')` tells where a navigation went.
 */
export function renderWithProviders(element: ReactElement, options: RouteRenderOptions = {}) {
  const { path = '/', initialEntry = path, routes = [], ...rest } = options;
  // Outside the app shell, mount the toast boxes the shell would provide.
  return renderRoutes([{ path, element }, ...routes], { ...rest, initialEntry }, true);
}

/** Renders a route tree (for layouts and guards); unknown paths render the location probe. */
export function renderRoutes(
  routeTree: RouteObject[],
  options: Omit<RouteRenderOptions, 'path' | 'routes'> & { initialEntry: string },
  withToasts = false,
) {
  const { initialEntry, preloadedState, store: given, ...renderOptions } = options;
  const store = given ?? makeStore(preloadedState);
  const router = createMemoryRouter([...routeTree, { path: '*', element: <LocationProbe /> }], {
    initialEntries: [initialEntry],
  });
  const result = render(
    <Provider store={store}>
      <FeatureBridges>
        <RouterProvider router={router} />
      </FeatureBridges>
      {withToasts && (
        <>
          <Toaster />
          <ShellToast />
        </>
      )}
    </Provider>,
    renderOptions,
  );
  return { ...result, store, router };
}

export interface FetchCall {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

/**
 * Replaces fetch with a router of canned answers. Returns the calls made, with parsed JSON bodies.
 */
export function mockFetch(handler: (call: FetchCall) => Response | Promise<Response>): FetchCall[] {
  const calls: FetchCall[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
    const call: FetchCall = {
      url: new URL(request.url).pathname + new URL(request.url).search,
      method: request.method,
      headers: request.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    return handler(call);
  });
  return calls;
}

export function json(body: unknown, status = 200): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}
