import { api } from '../../app/api';
import type { AppDispatch } from '../../app/store';
import { emitShowSantaAnimation, emitShowToast, emitUpdateWishlistCount } from '../../lib/events';
import type { ServerEvent } from '../notifications/sse';

/** The notification service's events (api/openapi.yaml, /api/notifications/stream). */
export const LIVE_EVENTS = {
  hello: 'hello',
  wishlistCount: 'wishlist-count',
  santa: 'santa',
} as const;

const WISHLIST_TAGS = [
  { type: 'Wishlist' as const, id: 'LIST' },
  { type: 'Wishlist' as const, id: 'RECENT' },
];

/** How long a Santa request made on this device counts as "ours" when its echo arrives. */
export const LOCAL_ECHO_MS = 15_000;
let lastLocalSanta = 0;

/** The gift options screen calls this before POST /api/santa: it plays the overlay itself. */
export function noteSantaRequestSentHere(now: number = Date.now()): void {
  lastLocalSanta = now;
}

export function sentHereRecently(now: number = Date.now()): boolean {
  return now - lastLocalSanta < LOCAL_ECHO_MS;
}

function parseData(event: ServerEvent): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(event.data);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export interface LiveContext {
  dispatch: AppDispatch;
  /** The count the badge shows now. */
  currentCount: () => number;
  now?: () => number;
}

/**
 * Turns one stream event into what the page shows: the badge count and fresh wishlist data for
 * a save or delete anywhere, and the Santa overlay for a request sent from another device.
 */
export function handleLiveEvent(event: ServerEvent, ctx: LiveContext): void {
  const data = parseData(event);
  const count = typeof data.count === 'number' && Number.isFinite(data.count) ? data.count : undefined;
  switch (event.event) {
    case LIVE_EVENTS.hello:
      if (count === undefined) return;
      // On (re)connect: if the list changed while this device was away, refresh it.
      if (count !== ctx.currentCount()) ctx.dispatch(api.util.invalidateTags(WISHLIST_TAGS));
      emitUpdateWishlistCount(count);
      return;
    case LIVE_EVENTS.wishlistCount:
      if (count !== undefined) emitUpdateWishlistCount(count);
      ctx.dispatch(api.util.invalidateTags(WISHLIST_TAGS));
      return;
    case LIVE_EVENTS.santa: {
      ctx.dispatch(api.util.invalidateTags(WISHLIST_TAGS));
      if (sentHereRecently(ctx.now?.() ?? Date.now())) return;
      emitShowSantaAnimation();
      const name = typeof data.name === 'string' && data.name ? data.name : null;
      const message = typeof data.message === 'string' && data.message ? data.message : 'Santa received your gift request!';
      emitShowToast(name ? `${message} (${name})` : message);
      return;
    }
    default:
      return;
  }
}
