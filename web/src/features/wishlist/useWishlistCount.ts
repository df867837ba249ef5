import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { selectCurrentUser } from '../auth/slice';
import { setWishlistCount } from '../shell/slice';
import { useGetWishlistQuery } from './api';

/**
 * Keeps the header badge in step with the signed-in user's wishlist. The 'update-wishlist-count'
 * page event (photo flow, live updates) sets the same number; whichever is newer wins.
 */
export function useWishlistCount(): number {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectCurrentUser);
  const { data } = useGetWishlistQuery(undefined, { skip: !user });
  const length = user ? data?.length : 0;

  useEffect(() => {
    if (length !== undefined) dispatch(setWishlistCount(length));
  }, [length, dispatch]);

  return useAppSelector((s) => s.shell.wishlistCount);
}
