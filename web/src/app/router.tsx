import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, useRoutes, type RouteObject } from 'react-router';
import { Shell } from './shell/Shell';
import { PageSpinner } from '../components/Spinner';
import { RequireAuth } from '../features/auth/components/RequireAuth';
import HomePage from './routes/HomePage';
import { lazyWithTexts } from '../lib/i18n';

type PageModule = { default: React.ComponentType };

/**
 * A route whose screen is downloaded when first visited, with the texts of every feature; a
 * spinner shows meanwhile. (React.lazy rather than the route's `lazy`: the app runs in React
 * Router's declarative mode, whose bundle is a third of the data router's; see README.)
 */
function lazyPage(load: () => Promise<PageModule>): Pick<RouteObject, 'element'> {
  const Page = lazy(() => lazyWithTexts(load));
  return {
    element: (
      <Suspense fallback={<PageSpinner />}>
        <Page />
      </Suspense>
    ),
  };
}

/** Every route of docs/spec.md, section 2. Home is in the first bundle; other screens load on demand. */
export const routes: RouteObject[] = [
  {
    element: <Shell />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'firebase-login', ...lazyPage(() => import('../features/auth/components/LoginPage')) },
      { path: 'login', ...lazyPage(() => import('../features/auth/components/LoginPage')) },
      { path: 'firebase-debug', ...lazyPage(() => import('../features/auth/components/FirebaseDebugPage')) },
      { path: 'camera', ...lazyPage(() => import('../features/photo/camera/CameraPage')) },
      { path: 'scan', element: <Navigate to="/camera?mode=scan" replace /> },
      { path: 'edit-photo', ...lazyPage(() => import('../features/photo/editor/EditPhotoPage')) },
      { path: 'gift-options', ...lazyPage(() => import('../features/photo/gift/GiftOptionsPage')) },
      { path: 'confirmation', ...lazyPage(() => import('../features/photo/gift/ConfirmationPage')) },
      { path: 'share-options', ...lazyPage(() => import('./routes/ShareOptionsRoute')) },
      { path: 'image-recognition', ...lazyPage(() => import('../features/photo/recognition/ImageRecognitionPage')) },
      { path: 'share/:slug', ...lazyPage(() => import('../features/photo/share/SharedGiftPage')) },
      // Open to visitors: claiming asks them to sign in and brings them back here.
      // The page shows its own sign-in prompt, and stays to say what was removed once the
      // account is deleted and the user signed out.
      { path: 'account', ...lazyPage(() => import('./routes/AccountRoute')) },
      { path: 'privacy', ...lazyPage(() => import('../features/account/components/PrivacyPage')) },
      { path: 'l/:token', ...lazyPage(() => import('./routes/SharedListRoute')) },
      // Open to visitors: it names the family and who invited, then asks them to sign in and come back.
      { path: 'join/:token', ...lazyPage(() => import('../features/families/components/JoinPage')) },
      // An email's unsubscribe link: no sign-in, the token says what stops.
      { path: 'unsubscribe/:token', ...lazyPage(() => import('../features/notification-settings/components/UnsubscribePage')) },
      {
        element: <RequireAuth />,
        children: [
          { path: 'wishlist', ...lazyPage(() => import('./routes/MyWishlistPage')) },
          { path: 'text-prompt', ...lazyPage(() => import('../features/wishlist/components/AddItemPage')) },
          { path: 'claims', ...lazyPage(() => import('../features/lists/components/ClaimsPage')) },
          { path: 'gifts/given', ...lazyPage(() => import('../features/giving/components/GivenGiftsPage')) },
          { path: 'family', ...lazyPage(() => import('./routes/FamilyRoute')) },
          { path: 'family/:id/secret-santa', ...lazyPage(() => import('../features/families/components/SecretSantaPage')) },
          { path: 'settings/notifications', ...lazyPage(() => import('../features/notification-settings/components/NotificationSettingsPage')) },
        ],
      },
      { path: '*', ...lazyPage(() => import('./routes/NotFoundPage')) },
    ],
  },
];

function AppRoutes() {
  return useRoutes(routes);
}

/** The app's routes in the browser's address bar. */
export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
