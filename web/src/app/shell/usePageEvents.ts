import { useEffect } from 'react';
import { api } from '../api';
import { useAppDispatch } from '../hooks';
import { onPageEvent, PAGE_EVENTS } from '../../lib/events';
import { setBackgroundUrl, showSanta, showShellToast } from './slice';

/**
 * The page-wide events of docs/spec.md, section 3, heard from outside the app and turned into the
 * same shell actions the app dispatches itself. 'update-wishlist-count' refreshes the wishlist: the
 * badge shows the cached list's length, so the server's answer, not the event's number, sets it.
 */
export function usePageEvents(): void {
  const dispatch = useAppDispatch();

  useEffect(() => {
    const off = [
      onPageEvent<unknown>(PAGE_EVENTS.showToast, (detail) => {
        dispatch(showShellToast(typeof detail === 'string' ? detail : String(detail ?? '')));
      }),
      onPageEvent(PAGE_EVENTS.showSantaAnimation, () => dispatch(showSanta())),
      onPageEvent(PAGE_EVENTS.updateWishlistCount, () => dispatch(api.util.invalidateTags([{ type: 'Wishlist', id: 'LIST' }]))),
      onPageEvent<{ url?: unknown } | undefined>(PAGE_EVENTS.backgroundThemeLoaded, (detail) => {
        if (detail && typeof detail.url === 'string') dispatch(setBackgroundUrl(detail.url));
      }),
    ];
    return () => off.forEach((f) => f());
  }, [dispatch]);
}
