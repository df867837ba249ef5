import { Outlet, ScrollRestoration } from 'react-router';
import { useAppSelector } from '../app/hooks';
import { usePageEvents } from '../features/shell/usePageEvents';
import { useDailyBackground } from '../features/shell/useDailyBackground';
import { useLiveUpdates } from '../features/live/useLiveUpdates';
import { Header } from './Header';
import { BottomNav } from './BottomNav';
import { Toaster } from './toast/Toaster';
import { ShellToast } from './toast/ShellToast';
import { SantaOverlay } from './SantaOverlay';

/** The app frame around every screen (SPEC 'Shared shell'). */
export function Shell() {
  usePageEvents();
  useDailyBackground();
  useLiveUpdates();
  const backgroundUrl = useAppSelector((s) => s.shell.backgroundUrl);

  return (
    <div className="app" style={{ '--app-background': `url("${backgroundUrl}")` } as React.CSSProperties}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
      <BottomNav />
      <Toaster />
      <ShellToast />
      <SantaOverlay />
      <ScrollRestoration />
    </div>
  );
}
