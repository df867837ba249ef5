import { useAppSelector } from '../../../app/hooks';
import { selectCurrentUser } from '../../../lib/session';
import { useGetWishlistQuery } from '../api';

/**
 * The header badge: the length of the signed-in user's cached wishlist. Nothing else writes a
 * count; saves and deletes invalidate the list, and the live stream refreshes it when another
 * device changes it, so the badge follows the cache.
 */
export function useWishlistCount(): number {
  const user = useAppSelector(selectCurrentUser);
  const { data } = useGetWishlistQuery(undefined, { skip: !user });
  return user ? (data?.length ?? 0) : 0;
}
