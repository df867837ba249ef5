import { afterEach, describe, expect, it, vi } from 'vitest';
import { startPhotoRefresh } from './photoRefresh';

describe('startPhotoRefresh', () => {
  afterEach(() => vi.useRealTimers());

  it('refetches the answers that carry photo addresses before those addresses expire', () => {
    vi.useFakeTimers();
    const dispatch = vi.fn();
    const stop = startPhotoRefresh(dispatch, 1000);
    vi.advanceTimersByTime(999);
    expect(dispatch).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(dispatch).toHaveBeenCalledTimes(1);
    expect(dispatch.mock.calls[0][0]).toMatchObject({ payload: ['Wishlist', 'Shared', 'Claims'] });
    stop();
    vi.advanceTimersByTime(5000);
    expect(dispatch).toHaveBeenCalledTimes(1);
  });
});
