import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../hooks';
import { hideShellToast, SHELL_TOAST_MS } from './slice';

/** The small message box at the bottom of the screen , shown for 3 s. */
export function ShellToast() {
  const { id, message, visible } = useAppSelector((s) => s.shell.shellToast);
  const dispatch = useAppDispatch();

  useEffect(() => {
    if (!visible) return;
    const timer = setTimeout(() => dispatch(hideShellToast(id)), SHELL_TOAST_MS);
    return () => clearTimeout(timer);
  }, [id, visible, dispatch]);

  return (
    <div className="shell-toast-region" aria-live="polite">
      {visible && (
        <div className="shell-toast" data-testid="shell-toast">
          {message}
        </div>
      )}
    </div>
  );
}
