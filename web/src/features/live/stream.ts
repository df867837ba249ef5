import { SseParser, type ServerEvent } from './sse';
import { apiRoute } from '../../lib/api/paths';

export const LIVE_STREAM_URL = apiRoute('GET', '/api/notifications/stream').url;
export const INITIAL_BACKOFF_MS = 1000;
export const MAX_BACKOFF_MS = 30_000;

export interface LiveStreamOptions {
  /** The current ID token, or null when nobody is signed in (the stream then stops). */
  getToken: () => Promise<string | null>;
  onEvent: (event: ServerEvent) => void;
  /** Called each time the stream is (re)connected. */
  onOpen?: () => void;
  signal: AbortSignal;
  fetchImpl?: typeof fetch;
  /** Waits between attempts; replaced in tests. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The next wait: doubling from 1 s up to 30 s, with up to 20% jitter so devices do not reconnect in step. */
export function nextBackoff(current: number, random: () => number = Math.random): { wait: number; next: number } {
  const wait = Math.round(current * (1 + 0.2 * random()));
  return { wait: Math.min(wait, MAX_BACKOFF_MS), next: Math.min(current * 2, MAX_BACKOFF_MS) };
}

/**
 * The wait a refusal asks for: `Retry-After` in seconds (a pod past its stream ceiling or
 * shedding a reconnect storm answers 503 or 429 with it), spread over up to half as long again
 * so the devices it refused do not all come back in the same second. Null without one.
 */
export function retryAfterWait(header: string | null, random: () => number = Math.random): number | null {
  if (!header) return null;
  const seconds = Number(header.trim());
  if (!Number.isFinite(seconds) || seconds < 0) return null;
  return Math.min(Math.round(seconds * 1000 * (1 + 0.5 * random())), 5 * MAX_BACKOFF_MS);
}

/**
 * Reads the live-update stream (Server-Sent Events over fetch: EventSource cannot send the
 * Authorization header) until `signal` aborts. After a drop it reconnects with back-off and
 * sends `Last-Event-ID`, so the server first replays what this device missed.
 */
export async function runLiveStream(options: LiveStreamOptions): Promise<void> {
  const { getToken, onEvent, onOpen, signal, fetchImpl = fetch, sleep = abortableSleep, random } = options;
  let lastEventId: string | undefined;
  let backoff = INITIAL_BACKOFF_MS;

  while (!signal.aborted) {
    let asked: number | null = null;
    try {
      const token = await getToken();
      if (!token || signal.aborted) return;
      const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' };
      if (lastEventId) headers['Last-Event-ID'] = lastEventId;
      const res = await fetchImpl(LIVE_STREAM_URL, { headers, signal, cache: 'no-store' });
      if (!res.ok || !res.body) {
        asked = retryAfterWait(res.headers.get('Retry-After'), random);
        throw new Error(`live updates answered ${res.status}`);
      }
      if (!res.headers.get('Content-Type')?.includes('text/event-stream')) {
        throw new Error(`live updates answered ${res.headers.get('Content-Type') ?? 'no content type'}`);
      }
      onOpen?.();
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser();
      let received = false;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const event of parser.push(value)) {
          if (event.id) lastEventId = event.id;
          received = true;
          onEvent(event);
        }
        // A connection that delivered something was healthy: the next drop starts from 1 s again.
        if (received) backoff = INITIAL_BACKOFF_MS;
      }
    } catch (err) {
      if (signal.aborted) return;
      console.warn('live updates interrupted', err);
    }
    if (signal.aborted) return;
    const { wait, next } = nextBackoff(backoff, random);
    backoff = next;
    // The server's Retry-After wins when it asks for longer than the back-off would wait.
    await sleep(Math.max(wait, asked ?? 0), signal);
  }
}
