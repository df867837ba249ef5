import { useCallback, useMemo } from 'react';
import { useAppDispatch } from '../hooks';
import { showSanta, showShellToast, showToast, type ToastInput } from './slice';

/**
 * The one way features reach the shell's notices: Redux actions of the shell slice. Non-React
 * code (the live stream) dispatches the same actions.
 */
export { showSanta, showShellToast, showToast, SANTA_ANIMATION_MS, type ToastInput } from './slice';

/** Shows the titled toast: `toast({ title, description, variant: 'destructive' })`. */
export function useToast(): (input: ToastInput) => void {
  const dispatch = useAppDispatch();
  return useCallback((input: ToastInput) => dispatch(showToast(input)), [dispatch]);
}

/** The bottom message box and the Santa overlay. */
export function useShellNotices(): { showMessage: (message: string) => void; showSanta: () => void } {
  const dispatch = useAppDispatch();
  return useMemo(
    () => ({
      showMessage: (message: string) => void dispatch(showShellToast(message)),
      showSanta: () => void dispatch(showSanta()),
    }),
    [dispatch],
  );
}
