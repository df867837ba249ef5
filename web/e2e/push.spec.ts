import { expect, test } from '@playwright/test';
import { signInWithEmail } from './support/app';
import { callApi, idToken, newPerson, PASSWORD } from './support/people';
import { deliverToServiceWorker, PushService, stubSubscribe, turnOnPushBySharing, waitForServiceWorker } from './support/pushService';

test.use({ serviceWorkers: 'allow' });

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
    await waitForServiceWorker(page);
    // Nothing is asked on the way in; sharing the list is the moment that explains it.
    await page.goto('/wishlist');
    await expect(page.getByTestId('push-prompt')).toHaveCount(0);
    await turnOnPushBySharing(page);

    // A cousin joins the owner's family: the server pushes it, encrypted for this device.
    const ownerToken = await idToken(owner);
    const family = await callApi<{ id: string; invite: { token: string } }>(ownerToken, 'POST', '/api/families', { name: 'The Pushers' });
    await callApi(await idToken(cousin), 'POST', `/api/invites/${family.invite.token}/accept`);
    const payload = await pushService.next();
    expect(JSON.parse(payload)).toMatchObject({ title: `${cousin.name} joined The Pushers`, url: '/family', kind: 'family-member-joined' });

    // The browser hands the push to the service worker, which shows it.
    const { worker, shown } = await deliverToServiceWorker(context, page, payload);
    expect(shown).toEqual([{ title: `${cousin.name} joined The Pushers`, body: 'The Pushers' }]);

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
