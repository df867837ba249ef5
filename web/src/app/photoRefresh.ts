import { api } from './api';
import type { AppDispatch } from './store';

/**
 * Photo addresses expire 1 to 2 hours after the server hands them out (signed, expiring photo
 * links). Wishlist data is otherwise never stale by time (docs/spec.md, section 7), so a screen
 * left open for hours would keep addresses that no longer open (a lazy image scrolled into view, a
 * detail page opened from an old list). Every half hour the answers that carry photos are fetched
 * again; unchanged ones cost a 304 within the hour, and each answer then holds addresses good for
 * at least another half hour.
 */
export const PHOTO_REFRESH_MS = 30 * 60 * 1000;

export function startPhotoRefresh(dispatch: AppDispatch, every = PHOTO_REFRESH_MS): () => void {
  const id = setInterval(() => {
    dispatch(api.util.invalidateTags(['Wishlist', 'Shared', 'Claims']));
  }, every);
  return () => clearInterval(id);
}
