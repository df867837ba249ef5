import { expect, test, type Page } from '@playwright/test';
import { signInWithEmail } from './support/app';
import { callApi, idToken, newPerson, PASSWORD } from './support/people';
import { PushService } from './support/pushService';

test.use({ serviceWorkers: 'allow' });

/** Stands in for the browser's subscribe(): a subscription at the local push service. */
async function stubSubscribe(page: Page, subscription: ReturnType<PushService['subscription']>): Promise<void> {
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

test('a push reaches the closed app: shown by the service worker, and tapping it opens the screen', async ({ browser }) => {
  test.setTimeout(90_000);
  const pushService = new PushService();
  await pushService.start();
  try {
    const owner = await newPerson('push-owner', 'Olivia');
    const cousin = await newPerson('push-cousin', 'Carl');
    const context = await browser.newContext();
    await context.grantPermissions(['notifications']);
    const page = await context.newPage();
    await stubSubscribe(page, pushService.subscription());

    await page.goto('/login');
    await signInWithEmail(page, owner.email, PASSWORD);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
      }
    });
    // Nothing is asked on the way in; sharing the list is the moment that explains it.
    await page.goto('/wishlist');
    await expect(page.getByTestId('push-prompt')).toHaveCount(0);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'My Wishlist: sharing' });
    await settings.getByRole('button', { name: 'Make a share link' }).click();
    await expect(settings.getByLabel(/Anyone with this link/)).toHaveValue(/\/l\//);
    await settings.getByRole('button', { name: 'Done' }).click();
    const prompt = page.getByTestId('push-prompt');
    await expect(prompt).toContainText('What anyone claims from your list stays a secret');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/push/subscriptions') && r.request().method() === 'POST');
    await prompt.getByRole('button', { name: 'Turn on notifications' }).click();
    expect((await saved).status()).toBe(201);
    await expect(prompt).toContainText('Notifications are on for this device.');

    // A cousin joins the owner's family: the server pushes it, encrypted for this device.
    const ownerToken = await idToken(owner);
    const family = await callApi<{ id: string; invite: { token: string } }>(ownerToken, 'POST', '/api/families', { name: 'The Pushers' });
    await callApi(await idToken(cousin), 'POST', `/api/invites/${family.invite.token}/accept`);
    const payload = await pushService.next();
    expect(JSON.parse(payload)).toMatchObject({ title: `${cousin.name} joined The Pushers`, url: '/family', kind: 'family-member-joined' });

    // The browser hands the push to the service worker, which shows it.
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const mine = registrations.find((r) => !r.isDeleted && new URL(r.scopeURL).origin === new URL(page.url()).origin);
        if (mine) resolve(mine.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    const delivery = { origin: new URL(page.url()).origin, registrationId: await registrationId, data: payload };
    await cdp.send('ServiceWorker.deliverPushMessage', delivery);
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const shown = () =>
      worker.evaluate(async () => {
        const sw = self as unknown as { registration: ServiceWorkerRegistration };
        return (await sw.registration.getNotifications()).map((n) => JSON.stringify([n.title, n.body]));
      });
    // On a loaded machine the browser's delivery to the worker was seen to be lost (nothing shown
    // after 10 s, in 1 of 3 runs): the browser's step is retried, the server's was checked above.
    // A delivery that was only slow may then show the notification twice, hence the set.
    await expect(async () => {
      const now = await shown();
      if (now.length === 0) await cdp.send('ServiceWorker.deliverPushMessage', delivery);
      expect([...new Set(now)]).toEqual([JSON.stringify([`${cousin.name} joined The Pushers`, 'The Pushers'])]);
    }).toPass({ timeout: 45_000, intervals: [1_000, 2_000, 5_000] });

    // Tapping it opens the family screen in the app's window.
    await worker.evaluate(async () => {
      // The worker's notificationclick handler, given the notification shown.
      const sw = self as unknown as { registration: ServiceWorkerRegistration; openNotificationTarget(n: Notification): Promise<unknown> };
      const [notification] = await sw.registration.getNotifications();
      await sw.openNotificationTarget(notification);
    });
    await expect(page).toHaveURL(/\/family$/);
    await expect(page.getByRole('heading', { name: 'The Pushers' })).toBeVisible();
    await context.close();
  } finally {
    await pushService.stop();
  }
});
