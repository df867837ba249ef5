import { createECDH, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BASE_URL } from './env';

/**
 * A local push service (RFC 8030) for the e2e suite, at the one address the test stack's
 * notification service may reach besides the internet (stack.sh's PUSH_ALLOW: 127.0.0.4, the
 * gateway's port + 8). Chromium cannot subscribe here (its push service is Google's), so tests
 * stub pushManager.subscribe with `subscription()`, and this service decrypts what the server
 * pushes (RFC 8291, aes128gcm) with the device's keys, as a browser would.
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
      endpoint: `http://127.0.0.4:${port}/push/${this.id}`,
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
