import { useEffect } from 'react';
import { dailyBackground, storeBackground } from '../../lib/backgrounds';
import { useAppDispatch } from '../hooks';
import { setBackgroundUrl } from './slice';

/**
 * Loads today's background drawing (day of the month modulo 11) after the first paint,
 * remembers it, and shows it.
 */
export function useDailyBackground(now: () => Date = () => new Date()): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const theme = dailyBackground(now());
    const image = new Image();
    let cancelled = false;
    image.onload = () => {
      if (cancelled) return;
      storeBackground(theme);
      dispatch(setBackgroundUrl(theme.url));
    };
    image.onerror = () => console.warn(`background ${theme.url} did not load`);
    image.src = theme.url;
    return () => {
      cancelled = true;
    };
    // Once per app start (`now` is only read here): the day rarely changes while the app is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
