import { useAppSelector } from '../hooks';
import { useDailyBackground } from './useDailyBackground';

/**
 * Today's background drawing, on a fixed layer behind the frame (shell.css, `.app-backdrop`).
 * A leaf of its own rather than a style of the Shell: the drawing arrives after the first paint,
 * and a Shell re-rendered and restyled for it would redo every screen inside it (a long task on a
 * phone's first load, which Lighthouse counts in Total Blocking Time).
 */
export function AppBackground() {
  useDailyBackground();
  const backgroundUrl = useAppSelector((s) => s.shell.backgroundUrl);
  return (
    <div
      className="app-backdrop"
      aria-hidden="true"
      data-testid="app-backdrop"
      style={{ '--app-background': `url("${backgroundUrl}")` } as React.CSSProperties}
    />
  );
}
