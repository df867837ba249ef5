import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { setTokenProvider } from '../../lib/authToken';
import { keyBytes, offerPush } from '../../lib/push';
import { inLanguage } from '../../test/i18n';
import { json, mockFetch } from '../../test/utils';
import { PushPrompt } from './PushPrompt';

const KEY = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';

/** jsdom has no Web Push: a browser that has, with a service worker whose subscribe() answers sub. */
function browserWithPush(permission: NotificationPermission, granted: NotificationPermission = 'granted') {
  const sub = { endpoint: 'https://push.example.com/abc', toJSON: () => ({ endpoint: 'https://push.example.com/abc', keys: { p256dh: 'p', auth: 'a' } }) };
  const subscribe = vi.fn(async () => sub);
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('Notification', { permission, requestPermission: vi.fn(async () => granted) });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve({ pushManager: { getSubscription: async () => null, subscribe } }) },
  });
  return subscribe;
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('the notifications offer', () => {
  it('stays hidden until a feature offers it, explains why, then subscribes and stores the subscription', async () => {
    const subscribe = browserWithPush('default');
    const calls = mockFetch((call) => (call.url.endsWith('/api/push/key') ? json({ publicKey: KEY }) : json({ id: 'x' }, 201)));
    render(<PushPrompt />);
    expect(screen.queryByTestId('push-prompt')).toBeNull();
    act(() => offerPush('joined'));
    expect(screen.getByTestId('push-prompt')).toHaveTextContent('when a gift you promised to buy is removed');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on notifications' }));
    expect(await screen.findByText('Notifications are on for this device.')).toBeInTheDocument();
    expect(subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: keyBytes(KEY) });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/push/key', 'POST /api/push/subscriptions']);
    // With the app's language: the reminders pushed to this device are written in it.
    expect(calls[1].body).toEqual({ endpoint: 'https://push.example.com/abc', keys: { p256dh: 'p', auth: 'a' }, language: 'en' });
  });

  it('is not offered again once dismissed, nor when the browser was already answered', async () => {
    browserWithPush('default');
    render(<PushPrompt />);
    act(() => offerPush('shared'));
    await userEvent.click(screen.getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByTestId('push-prompt')).toBeNull());
    act(() => offerPush('shared'));
    expect(screen.queryByTestId('push-prompt')).toBeNull();

    localStorage.clear();
    browserWithPush('denied');
    act(() => offerPush('shared'));
    expect(screen.queryByTestId('push-prompt')).toBeNull();
  });

  it('says so when the person refuses in the browser', async () => {
    browserWithPush('default', 'denied');
    const calls = mockFetch(() => json({}));
    render(<PushPrompt />);
    act(() => offerPush('shared'));
    await userEvent.click(screen.getByRole('button', { name: 'Turn on notifications' }));
    expect(await screen.findByText(/could not be turned on/)).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});

describe('keyBytes', () => {
  it('decodes base64url with or without padding', () => {
    expect([...keyBytes('AQID_w')]).toEqual([1, 2, 3, 255]);
    expect([...keyBytes('AQID_w==')]).toEqual([1, 2, 3, 255]);
  });
});

describe('the push language', () => {
  it('stores a subscribed device again when the app speaks another language, once', async () => {
    const sub = { endpoint: 'https://push.example.com/abc', toJSON: () => ({ endpoint: 'https://push.example.com/abc', keys: { p256dh: 'p', auth: 'a' } }) };
    vi.stubGlobal('PushManager', class {});
    vi.stubGlobal('Notification', { permission: 'granted', requestPermission: vi.fn(async () => 'granted') });
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { controller: {}, getRegistration: async () => ({ pushManager: { getSubscription: async () => sub } }) },
    });
    setTokenProvider(async () => 'tok');
    localStorage.removeItem('santa:pushLanguage');
    await inLanguage('de');
    const calls = mockFetch(() => json({ id: 'x' }, 201));
    const { rerender } = render(<PushPrompt />);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].method).toBe('POST');
    expect(calls[0].body).toEqual({ endpoint: 'https://push.example.com/abc', keys: { p256dh: 'p', auth: 'a' }, language: 'de' });
    rerender(<PushPrompt />);
    render(<PushPrompt />); // the next start, in the same language: nothing to send
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toHaveLength(1);
    setTokenProvider(async () => null);
  });
});
