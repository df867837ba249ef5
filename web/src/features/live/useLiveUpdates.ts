import { useEffect, useRef } from 'react';
import { useStore } from 'react-redux';
import type { AppStore } from '../../app/store';
import { useAppSelector } from '../../app/hooks';
import { getAuthToken } from '../../lib/authToken';
import { selectCurrentUser } from '../../lib/session';

import { handleLiveEvent } from './events';
import { runLiveStream } from './stream';

/**
 * While someone is signed in, listens to their live-update stream, so a save or a Santa request
 * on one device shows on every other open device. Mounted once, by the shell, which hands in the
 * count the badge shows.
 */
export function useLiveUpdates(wishlistCount: number): void {
  const store = useStore() as AppStore;
  const uid = useAppSelector(selectCurrentUser)?.id;
  // Read by the stream's handler, which outlives renders.
  const count = useRef(wishlistCount);
  useEffect(() => {
    count.current = wishlistCount;
  }, [wishlistCount]);

  useEffect(() => {
    if (!uid || typeof ReadableStream === 'undefined' || typeof TextDecoderStream === 'undefined') return;
    const abort = new AbortController();
    void runLiveStream({
      getToken: getAuthToken,
      signal: abort.signal,
      onEvent: (event) =>
        handleLiveEvent(event, { dispatch: store.dispatch, currentCount: () => count.current }),
    });
    return () => abort.abort();
  }, [uid, store]);
}
