import { Outlet } from 'react-router';
import { BottomNav } from '../../components/BottomNav';
import { Header } from '../../components/Header';
import { useAuthActions } from '../../features/auth/useAuthActions';
import { useLiveUpdates } from '../../features/live/useLiveUpdates';
import { PushPrompt } from '../../features/push/PushPrompt';
import { useWishlistCount } from '../../features/wishlist/hooks/useWishlistCount';
import { selectAuthLoading, selectCurrentUser } from '../../lib/session';
import { useAppSelector } from '../hooks';
import { AppBackground } from './AppBackground';
import { SantaOverlay } from './SantaOverlay';
import { ShellToast } from './ShellToast';
import { Toaster } from './Toaster';
import { usePageEvents } from './usePageEvents';
import { useScrollRestoration } from './useScrollRestoration';
import './shell.css';

/** The app frame around every screen (docs/spec.md, section 2 'Shared shell'); it wires the features together. */
export function Shell() {
  usePageEvents();
  useScrollRestoration();
  const wishlistCount = useWishlistCount();
  useLiveUpdates(wishlistCount);
  const user = useAppSelector(selectCurrentUser);
  const loading = useAppSelector(selectAuthLoading);
  const initialized = useAppSelector((s) => s.auth.initialized);
  const { logout } = useAuthActions();

  return (
    <div className="app">
      <AppBackground />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header
        user={user}
        authPending={!initialized && loading}
        wishlistCount={wishlistCount}
        onLogout={() => void logout()}
      />
      <main id="main" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
      <BottomNav />
      <Toaster />
      <PushPrompt />
      <ShellToast />
      <SantaOverlay />
    </div>
  );
}
