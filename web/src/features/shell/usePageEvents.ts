import { useEffect } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { onPageEvent, PAGE_EVENTS } from '../../lib/events';
import {
  SANTA_ANIMATION_MS,
  setBackgroundUrl,
  setSantaVisible,
  setWishlistCount,
  showShellToast,
} from './slice';

/** Wires the page-wide events (SPEC 3) to the shell's state. Mounted once, by the shell. */
export function usePageEvents(): void {
  const dispatch = useAppDispatch();

  useEffect(() => {
    let santaTimer: ReturnType<typeof setTimeout> | undefined;
    const off = [
      onPageEvent<unknown>(PAGE_EVENTS.showToast, (detail) => {
        dispatch(showShellToast(typeof detail === 'string' ? detail : String(detail ?? '')));
      }),
      onPageEvent(PAGE_EVENTS.showSantaAnimation, () => {
        clearTimeout(santaTimer);
        dispatch(setSantaVisible(true));
        santaTimer = setTimeout(() => dispatch(setSantaVisible(false)), SANTA_ANIMATION_MS);
      }),
      onPageEvent<unknown>(PAGE_EVENTS.updateWishlistCount, (detail) => {
        const n = Number(detail);
        if (Number.isFinite(n)) dispatch(setWishlistCount(n));
      }),
      onPageEvent<{ url?: unknown } | undefined>(PAGE_EVENTS.backgroundThemeLoaded, (detail) => {
        if (detail && typeof detail.url === 'string') dispatch(setBackgroundUrl(detail.url));
      }),
    ];
    return () => {
      clearTimeout(santaTimer);
      off.forEach((f) => f());
    };
  }, [dispatch]);
}
