import { makeStore } from '../../app/store';
import { PAGE_EVENTS } from '../../lib/events';
import { handleServerEvent } from './useNotificationStream';

describe('handleServerEvent', () => {
  it('turns a count into update-wishlist-count', () => {
    const seen: unknown[] = [];
    const listener = (e: Event) => seen.push((e as CustomEvent).detail);
    window.addEventListener(PAGE_EVENTS.updateWishlistCount, listener);
    try {
      handleServerEvent({ event: 'wishlist.count', data: '{"count":4}' }, makeStore().dispatch);
      expect(seen).toEqual([4]);
    } finally {
      window.removeEventListener(PAGE_EVENTS.updateWishlistCount, listener);
    }
  });

  it('shows the Santa overlay for a Santa notice', () => {
    const listener = vi.fn();
    window.addEventListener(PAGE_EVENTS.showSantaAnimation, listener);
    try {
      handleServerEvent({ event: 'santa.received', data: '{"message":"Santa received your gift request!"}' }, makeStore().dispatch);
      expect(listener).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener(PAGE_EVENTS.showSantaAnimation, listener);
    }
  });

  it('refreshes wishlist data when items change', () => {
    const store = makeStore();
    const dispatch = vi.spyOn(store, 'dispatch');
    handleServerEvent({ event: 'item.created', data: 'not json' }, store.dispatch);
    expect(dispatch).toHaveBeenCalledWith(expect.objectContaining({ type: 'api/invalidateTags' }));
  });
});
