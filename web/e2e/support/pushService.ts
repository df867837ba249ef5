import { createECDH, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type BrowserContext, type Page, type Response, type Worker } from '@playwright/test';
import { BASE_URL } from './env';

/**
 * A local push service (RFC 8030) for the e2e suite, at the one address the test stack's
 * notification service may reach besides the internet (stack.sh's PUSH_ALLOW: 127.0.0.4, the
 * gateway's port + 8), or at E2E_PUSH_ADDR ("ip:port": on the local cluster, this machine's
 * address, which k8s-test.sh lets the notification pods reach). Chromium cannot subscribe here
 * (its push service is Google's), so tests stub pushManager.subscribe with `subscription()`
 * (stubSubscribe), and this service decrypts what the server pushes (RFC 8291, aes128gcm) with
 * the device's keys, as a browser would.
 */
export class PushService {
  private readonly device = createECDH('prime256v1');
  private readonly auth = randomBytes(16);
  private readonly id = randomBytes(8).toString('hex');
  private readonly waiting: ((message: string) => void)[] = [];
  private readonly inbox: string[] = [];
  private server?: Server;

  constructor() {
    this.device.generateKeys();
  }

  static address(): { host: string; port: number } {
    const [host, port] = process.env.E2E_PUSH_ADDR?.split(':') ?? [];
    if (host && port) return { host, port: Number(port) };
    return { host: '127.0.0.4', port: Number(new URL(BASE_URL).port || 80) + 8 };
  }

  async start(): Promise<void> {
    const { host, port } = PushService.address();
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== `/push/${this.id}` || !/^vapid t=[^,]+, k=/.test(req.headers.authorization ?? '')) {
          res.writeHead(404).end();
          return;
        }
        try {
          const message = this.decrypt(Buffer.concat(chunks));
          res.writeHead(201).end();
          const next = this.waiting.shift();
          if (next) next(message);
          else this.inbox.push(message);
        } catch (err) {
          res.writeHead(400).end(String(err));
        }
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, resolve);
    });
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** What the stubbed pushManager.subscribe() resolves to, as PushSubscription.toJSON(). */
  subscription(): { endpoint: string; keys: { p256dh: string; auth: string } } {
    const { port } = this.server!.address() as AddressInfo;
    return {
      endpoint: `http://${PushService.address().host}:${port}/push/${this.id}`,
      keys: { p256dh: this.device.getPublicKey().toString('base64url'), auth: this.auth.toString('base64url') },
    };
  }

  /** The next push's decrypted payload. */
  next(): Promise<string> {
    const ready = this.inbox.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private decrypt(body: Buffer): string {
    const salt = body.subarray(0, 16);
    const idlen = body[20];
    const serverKey = body.subarray(21, 21 + idlen);
    const ciphertext = body.subarray(21 + idlen);
    const secret = this.device.computeSecret(serverKey);
    const info = Buffer.concat([Buffer.from('WebPush: info\0'), this.device.getPublicKey(), serverKey]);
    const ikm = Buffer.from(hkdfSync('sha256', secret, this.auth, info, 32));
    const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
    const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
    const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
    let end = plain.length;
    while (end > 0 && plain[end - 1] === 0) end--;
    if (plain[end - 1] !== 2) throw new Error('no last-record delimiter');
    return plain.subarray(0, end - 1).toString('utf8');
  }
}

/** Stands in for the browser's subscribe(): a subscription at the local push service. */
export async function stubSubscribe(page: Page, subscription: ReturnType<PushService['subscription']>): Promise<void> {
  await page.addInitScript((sub) => {
    const fake = {
      endpoint: sub.endpoint,
      expirationTime: null,
      toJSON: () => ({ ...sub, expirationTime: null }),
      unsubscribe: async () => true,
    };
    let subscribed = false;
    PushManager.prototype.subscribe = async function () {
      subscribed = true;
      return fake as unknown as PushSubscription;
    };
    PushManager.prototype.getSubscription = async function () {
      return (subscribed ? fake : null) as unknown as PushSubscription | null;
    };
  }, subscription);
}

/** Resolves once the app's service worker controls the page (push needs a registration). */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    }
  });
}

/**
 * On /wishlist: shares the list (the moment the app asks for notifications) and turns them on
 * in the prompt that follows. Returns the answer that saved the device's subscription.
 */
export async function turnOnPushBySharing(page: Page): Promise<Response> {
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'My Wishlist: sharing' });
  await settings.getByRole('button', { name: 'Make a share link' }).click();
  await expect(settings.getByLabel(/Anyone with this link/)).toHaveValue(/\/l\//);
  await settings.getByRole('button', { name: 'Done' }).click();
  const prompt = page.getByTestId('push-prompt');
  await expect(prompt).toContainText('What anyone claims from your list stays a secret');
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/push/subscriptions') && r.request().method() === 'POST');
  await prompt.getByRole('button', { name: 'Turn on notifications' }).click();
  const answer = await saved;
  expect(answer.status()).toBe(201);
  await expect(prompt).toContainText('Notifications are on for this device.');
  return answer;
}

/**
 * Hands a push the server sent (its decrypted payload) to the page's service worker through
 * DevTools, as the browser does when its push service delivers, and waits until the worker has
 * shown a notification. Returns the worker and what it shows, each notification once.
 */
export async function deliverToServiceWorker(
  context: BrowserContext,
  page: Page,
  payload: string,
): Promise<{ worker: Worker; shown: { title: string; body: string }[] }> {
  const cdp = await context.newCDPSession(page);
  const origin = new URL(page.url()).origin;
  const registrationId = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((r) => !r.isDeleted && new URL(r.scopeURL).origin === origin);
      if (mine) resolve(mine.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  const delivery = { origin, registrationId: await registrationId, data: payload };
  await cdp.send('ServiceWorker.deliverPushMessage', delivery);
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const shown = () =>
    worker.evaluate(async () => {
      const sw = self as unknown as { registration: ServiceWorkerRegistration };
      return (await sw.registration.getNotifications()).map((n) => JSON.stringify([n.title, n.body]));
    });
  // On a loaded machine the browser's delivery to the worker was seen to be lost (nothing shown
  // after 10 s, in 1 of 3 runs): the browser's step is retried, the server's is the caller's to
  // check. A delivery that was only slow may then show the notification twice, hence the set.
  let seen: string[] = [];
  await expect(async () => {
    seen = await shown();
    if (seen.length === 0) await cdp.send('ServiceWorker.deliverPushMessage', delivery);
    expect(seen.length).toBeGreaterThan(0);
  }).toPass({ timeout: 45_000, intervals: [1_000, 2_000, 5_000] });
  return {
    worker,
    shown: [...new Set(seen)].map((n) => {
      const [title, body] = JSON.parse(n) as [string, string];
      return { title, body };
    }),
  };
}
