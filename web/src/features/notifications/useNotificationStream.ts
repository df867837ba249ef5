import { useEffect } from 'react';
import { api } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import type { AppDispatch } from '../../app/store';
import { getAuthToken } from '../../lib/authToken';
import { emitShowSantaAnimation, emitShowToast, emitUpdateWishlistCount } from '../../lib/events';
import { selectCurrentUser } from '../auth/slice';
import { SseParser, type ServerEvent } from './sse';

const STREAM_URL = '/api/notifications/stream';
const MAX_BACKOFF_MS = 30_000;

/**
 * Turns a live-update event into page events. The stream's event names are settled by the
 * notification service's issue; this accepts what it is likely to send: a wishlist count
 * ({count} or {wishlistCount}), a Santa notice (event name containing 'santa') and item changes.
 */
export function handleServerEvent(event: ServerEvent, dispatch: AppDispatch): void {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(event.data);
    if (parsed && typeof parsed === 'object') data = parsed as Record<string, unknown>;
  } catch {
    /* plain-text data: only the event name matters */
  }
  const count = typeof data.count === 'number' ? data.count : data.wishlistCount;
  if (typeof count === 'number') emitUpdateWishlistCount(count);
  if (/santa/i.test(event.event)) emitShowSantaAnimation();
  if (/item|wishlist/i.test(event.event)) dispatch(api.util.invalidateTags(['Wishlist']));
  if (typeof data.message === 'string' && !/santa/i.test(event.event)) emitShowToast(data.message);
}

/**
 * Live updates for the signed-in user over fetch streaming (not EventSource: it cannot send the
 * Authorization header). Reconnects with back-off; stops quietly if the gateway has no stream.
 */
export function useNotificationStream(): void {
  const dispatch = useAppDispatch();
  const uid = useAppSelector(selectCurrentUser)?.id;

  useEffect(() => {
    if (!uid || typeof ReadableStream === 'undefined') return;
    const abort = new AbortController();
    let backoff = 1000;

    async function connect(): Promise<void> {
      while (!abort.signal.aborted) {
        try {
          const token = await getAuthToken();
          if (!token) return;
          const res = await fetch(STREAM_URL, {
            headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
            signal: abort.signal,
            cache: 'no-store',
          });
          if (res.status === 404 || res.status === 501) return; // not deployed here
          if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
          if (!res.headers.get('Content-Type')?.includes('text/event-stream')) return;
          backoff = 1000;
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          const parser = new SseParser();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            parser.push(value).forEach((e) => handleServerEvent(e, dispatch));
          }
        } catch (err) {
          if (abort.signal.aborted) return;
          console.warn('live updates interrupted', err);
        }
        await new Promise((r) => setTimeout(r, backoff));
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }

    void connect();
    return () => abort.abort();
  }, [uid, dispatch]);
}
