import { getAuthToken } from './authToken';
import { apiRoute } from './api/paths';
import { currentLanguage } from './i18n';
import { safeGet, safeSet } from './storage';

/**
 * Web Push for this device: the browser's subscription (made with the server's VAPID key) is
 * stored by the notification service, which pushes the family's notices while the app is
 * closed; public/sw.js shows them. Signing out removes it, so a shared device is not told
 * another person's news.
 */

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** 'default' until asked; 'unsupported' where the browser has no Web Push. */
export function pushPermission(): NotificationPermission | 'unsupported' {
  return pushSupported() ? Notification.permission : 'unsupported';
}

/** A call to the notification service's push routes, its url and method from apiRoute (checked against api/openapi.yaml). */
async function call({ url, method }: { url: string; method: string }, body?: unknown): Promise<Response> {
  const token = await getAuthToken();
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** The VAPID public key (base64url) as the bytes pushManager.subscribe() takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/**
 * Asks for permission (call it from a click: browsers ignore requests made without one),
 * subscribes this device and stores the subscription. Resolves to whether pushes will come.
 */
export async function enablePush(): Promise<boolean> {
  if (!pushSupported()) return false;
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return false;
  const keyRes = await call(apiRoute('GET', '/api/push/key'));
  if (!keyRes.ok) return false;
  const { publicKey } = (await keyRes.json()) as { publicKey: string };
  const registration = await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  // The app's language goes with it: the reminders pushed to this device are written in it.
  const language = currentLanguage();
  const saved = await call(apiRoute('POST', '/api/push/subscriptions'), { ...subscription.toJSON(), language });
  if (saved.ok) safeSet(localStorage, SENT_LANGUAGE, language);
  return saved.ok;
}

/** The language this device's subscription was last stored with. */
const SENT_LANGUAGE = 'santa:pushLanguage';

/**
 * Stores this device's subscription again when the app's language changed since it was last
 * sent, so the reminders pushed here are written in the language the app now speaks. Does
 * nothing where this device has not subscribed, or nobody is signed in.
 */
export async function syncPushLanguage(language: string): Promise<void> {
  if (!pushSupported() || Notification.permission !== 'granted' || !navigator.serviceWorker.controller) return;
  if (safeGet(localStorage, SENT_LANGUAGE) === language) return;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription || !(await getAuthToken())) return;
  const saved = await call(apiRoute('POST', '/api/push/subscriptions'), { ...subscription.toJSON(), language });
  if (saved.ok) safeSet(localStorage, SENT_LANGUAGE, language);
}

/** Stops pushes to this device (sign-out): the server forgets it, then the browser does. */
export async function disablePush(): Promise<void> {
  if (!pushSupported() || !navigator.serviceWorker.controller) return;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  await call(apiRoute('DELETE', '/api/push/subscriptions'), { endpoint: subscription.endpoint }).catch(() => undefined);
  await subscription.unsubscribe().catch(() => false);
}

/** The moments the app offers notifications at, each with its own explanation. */
export type PushReason = 'shared' | 'joined';

const offers = new Set<(reason: PushReason) => void>();

/** Called by a feature at a moment worth offering notifications (a list shared, a family joined). */
export function offerPush(reason: PushReason): void {
  for (const listener of offers) listener(reason);
}

/** The shell's prompt listens here; returns the unsubscribe. */
export function onPushOffer(listener: (reason: PushReason) => void): () => void {
  offers.add(listener);
  return () => {
    offers.delete(listener);
  };
}
