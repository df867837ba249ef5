import { makeStore } from '../../app/store';
import { noteSantaRequestSentHere } from '../../lib/santaEcho';
import { handleLiveEvent, type LiveEvent, type LiveEventName } from './events';
import { LIVE_STREAM_URL, nextBackoff, retryAfterWait, runLiveStream } from './stream';

function sseResponse(chunks: string[], status = 200): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const enc = new TextEncoder();
      chunks.forEach((c) => controller.enqueue(enc.encode(c)));
      controller.close();
    },
  });
  return new Response(stream, { status, headers: { 'Content-Type': 'text/event-stream' } });
}

describe('live stream', () => {
  it('reconnects with back-off and Last-Event-ID after a drop', async () => {
    const abort = new AbortController();
    const headers: Record<string, string>[] = [];
    const events: string[] = [];
    const waits: number[] = [];
    const answers = [
      () => sseResponse(['id: 1\nevent: hello\ndata: {"count":2}\n\n', ': ping\n\nid: 2\nevent: wishlist-count\ndata: {"count":3,"itemId":"x","cause":"created"}\n\n']),
      () => new Response('busy', { status: 503 }),
      () => {
        abort.abort();
        return sseResponse([]);
      },
    ];
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await runLiveStream({
      getToken: async () => 'tok',
      onEvent: (e) => events.push(`${e.id}:${e.event}`),
      signal: abort.signal,
      random: () => 0,
      sleep: async (ms) => void waits.push(ms),
      fetchImpl: (async (url: string, init: RequestInit) => {
        expect(url).toBe(LIVE_STREAM_URL);
        headers.push(init.headers as Record<string, string>);
        return answers.shift()!();
      }) as typeof fetch,
    });
    expect(events).toEqual(['1:hello', '2:wishlist-count']);
    expect(headers[0]).toEqual({ Authorization: 'Bearer tok', Accept: 'text/event-stream' });
    expect(headers[1]['Last-Event-ID']).toBe('2');
    expect(headers[2]['Last-Event-ID']).toBe('2');
    // 1 s after a connection that delivered events, then doubling after the failure.
    expect(waits).toEqual([1000, 2000]);
  });

  it('waits as long as a refusal\'s Retry-After asks, spread so refused devices do not return together', async () => {
    const abort = new AbortController();
    const waits: number[] = [];
    const answers = [
      () => new Response('{}', { status: 503, headers: { 'Retry-After': '7' } }),
      () => new Response('{}', { status: 429, headers: { 'Retry-After': '0' } }),
      () => {
        abort.abort();
        return sseResponse([]);
      },
    ];
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await runLiveStream({
      getToken: async () => 'tok',
      onEvent: vi.fn(),
      signal: abort.signal,
      random: () => 0.5,
      sleep: async (ms) => void waits.push(ms),
      fetchImpl: (async () => answers.shift()!()) as typeof fetch,
    });
    // 7 s asked, plus a quarter (random 0.5 of up to half); then the back-off's own 2.2 s wins over 0 s.
    expect(waits).toEqual([8750, 2200]);
  });

  it('reads Retry-After in seconds and ignores what is not a number', () => {
    expect(retryAfterWait('3', () => 0)).toBe(3000);
    expect(retryAfterWait('3', () => 1)).toBe(4500);
    expect(retryAfterWait(null)).toBeNull();
    expect(retryAfterWait('Wed, 21 Oct 2015 07:28:00 GMT')).toBeNull();
    expect(retryAfterWait('-1')).toBeNull();
    expect(retryAfterWait('100000', () => 0)).toBe(150_000);
  });

  it('stops when nobody is signed in', async () => {
    const fetchImpl = vi.fn();
    await runLiveStream({ getToken: async () => null, onEvent: vi.fn(), signal: new AbortController().signal, fetchImpl });
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('backs off from 1 s doubling to 30 s', () => {
    let current = 1000;
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      const { wait, next } = nextBackoff(current, () => 0);
      waits.push(wait);
      current = next;
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});

describe('live events', () => {
  // The badge counts the cached wishlist: refreshing the list (invalidateTags) is what moves it.
  const invalidated = expect.objectContaining({ type: 'api/invalidateTags' });

  it('wishlist-count refreshes the wishlist', () => {
    const store = makeStore();
    const dispatch = vi.spyOn(store, 'dispatch');
    handleLiveEvent({ event: 'wishlist-count', data: '{"count":5,"itemId":"i","cause":"created"}' }, { dispatch: store.dispatch, currentCount: () => 4 });
    expect(dispatch).toHaveBeenCalledTimes(1);
    expect(dispatch).toHaveBeenCalledWith(invalidated);
  });

  it('shared-list-changed re-reads open shared lists, the shopping list and its totals; claim-removed also says what went', () => {
    const store = makeStore();
    const dispatch = vi.spyOn(store, 'dispatch');
    handleLiveEvent({ event: 'shared-list-changed', data: '{"listId":"l1"}' }, { dispatch: store.dispatch, currentCount: () => 0 });
    expect(dispatch).toHaveBeenCalledWith(
      expect.objectContaining({ type: 'api/invalidateTags', payload: ['Shared', 'Claims', 'Budgets', { type: 'Wishlist', id: 'LIST' }] }),
    );
    dispatch.mockClear();
    handleLiveEvent(
      { event: 'claim-removed', data: '{"message":"Red bicycle was removed from Emma\'s list","itemId":"i","listId":"l1"}' },
      { dispatch: store.dispatch, currentCount: () => 0 },
    );
    expect(dispatch).toHaveBeenCalledWith(expect.objectContaining({ type: 'api/invalidateTags' }));
    expect(JSON.stringify(store.getState().shell)).toContain("Red bicycle was removed from Emma's list");
  });

  it('secret-santa re-reads that family\'s match and says it is ready; family-member-joined re-reads the families', () => {
    const store = makeStore();
    const dispatch = vi.spyOn(store, 'dispatch');
    const ctx = { dispatch: store.dispatch, currentCount: () => 0 };
    handleLiveEvent(
      { event: 'secret-santa', data: '{"message":"Your Secret Santa match is ready","familyId":"f1","familyName":"The Smiths"}' },
      ctx,
    );
    expect(dispatch).toHaveBeenCalledWith(
      expect.objectContaining({
        type: 'api/invalidateTags',
        payload: [
          { type: 'SecretSanta', id: 'f1' },
          { type: 'SecretSantaMessages', id: 'f1' },
        ],
      }),
    );
    expect(JSON.stringify(store.getState().shell)).toContain('Your Secret Santa match is ready (The Smiths)');
    dispatch.mockClear();
    handleLiveEvent(
      { event: 'family-member-joined', data: '{"message":"Cleo joined The Smiths","familyId":"f1","familyName":"The Smiths","uid":"u","displayName":"Cleo"}' },
      ctx,
    );
    expect(dispatch).toHaveBeenCalledWith(expect.objectContaining({ type: 'api/invalidateTags', payload: ['Families'] }));
    expect(JSON.stringify(store.getState().shell)).toContain('Cleo joined The Smiths');
  });

  it('hello refreshes the wishlist only when the count changed', () => {
    const store = makeStore();
    const dispatch = vi.spyOn(store, 'dispatch');
    handleLiveEvent({ event: 'hello', data: '{"count":2}' }, { dispatch: store.dispatch, currentCount: () => 2 });
    expect(dispatch).not.toHaveBeenCalled();
    handleLiveEvent({ event: 'hello', data: '{"count":3}' }, { dispatch: store.dispatch, currentCount: () => 2 });
    expect(dispatch).toHaveBeenCalledTimes(1);
    expect(dispatch).toHaveBeenCalledWith(invalidated);
  });

  it('santa from another device shows the overlay and a toast; the sending device is not shown it twice', () => {
    const store = makeStore();
    const data = '{"message":"Santa received your gift request!","itemId":"i","name":"Sled"}';
    handleLiveEvent({ event: 'santa', data }, { dispatch: store.dispatch, currentCount: () => 0, now: () => 1_000_000 });
    expect(store.getState().shell.santa).toEqual({ id: 1, visible: true });
    expect(store.getState().shell.shellToast).toMatchObject({ message: 'Santa received your gift request! (Sled)', visible: true });
    noteSantaRequestSentHere(2_000_000);
    handleLiveEvent({ event: 'santa', data }, { dispatch: store.dispatch, currentCount: () => 0, now: () => 2_005_000 });
    expect(store.getState().shell.santa.id).toBe(1);
    expect(store.getState().shell.shellToast.id).toBe(1);
  });

  it('ignores events it does not know and data that does not parse', () => {
    const store = makeStore();
    const dispatch = vi.spyOn(store, 'dispatch');
    handleLiveEvent({ event: 'ping', data: 'x' }, { dispatch: store.dispatch, currentCount: () => 0 });
    handleLiveEvent({ event: 'hello', data: 'not json' }, { dispatch: store.dispatch, currentCount: () => 0 });
    expect(dispatch).not.toHaveBeenCalled();
  });
});

// What `tsc` refuses: each line below must be a type error, else its expect-error directive is
// unused and fails the type check. Never called: only the types matter.
export function typeChecks(): void {
  // @ts-expect-error a name api/openapi.yaml's LiveEvent does not have
  const name: LiveEventName = 'wishlist-changed';
  // @ts-expect-error data the spec's HelloData does not have (hello carries only the count)
  const hello: Extract<LiveEvent, { event: 'hello' }> = { event: 'hello', data: { count: 1, itemId: 'i' } };
  // @ts-expect-error a santa event's data is SantaData: its name is a string
  const santa: Extract<LiveEvent, { event: 'santa' }> = { event: 'santa', data: { message: 'Santa received your gift request!', itemId: 'i', name: 1 } };
  // @ts-expect-error a name paired with another event's data (hello's count is not a wishlist-count)
  const mixed: LiveEvent = { event: 'wishlist-count', data: { count: 1 } };
  void [name, hello, santa, mixed];
}
