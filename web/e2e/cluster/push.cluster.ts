import { expect, test } from '@playwright/test';
import { signInWithEmail } from '../support/app';
import { BASE_URL } from '../support/env';
import { mapHostForFetch } from '../support/hostMap';
import { callApi, idToken, newPerson, PASSWORD } from '../support/people';
import { deliverToServiceWorker, PushService, stubSubscribe, turnOnPushBySharing, waitForServiceWorker } from '../support/pushService';

/**
 * Web Push on the local cluster through the ingress over HTTPS (deploy/cluster/k8s-test.sh): the
 * service worker registers (a secure context with a certificate Chromium trusts), the device's
 * subscription is saved through Traefik, and a push the cluster's notification pods send reaches
 * the push service on this machine (E2E_PUSH_ADDR, which k8s-test.sh lets them reach) and is
 * shown by the service worker. As in the local push spec, Chromium's own subscribe() is stubbed
 * (its push service is Google's) and the browser's delivery is driven through DevTools.
 */

mapHostForFetch();
const HOST = new URL(BASE_URL).host;
test.use({ serviceWorkers: 'allow' });

test('through the ingress over HTTPS: a push subscription made, a push from the cluster shown by the service worker', async ({ browser }) => {
  test.setTimeout(150_000);
  const pushService = new PushService();
  await pushService.start();
  try {
    const owner = await newPerson('ingress-push-owner', 'Olivia');
    const cousin = await newPerson('ingress-push-cousin', 'Carl');
    const context = await browser.newContext();
    await context.grantPermissions(['notifications']);
    const page = await context.newPage();
    await stubSubscribe(page, pushService.subscription());

    await page.goto('/login');
    await signInWithEmail(page, owner.email, PASSWORD);
    expect(new URL(page.url()).origin).toBe(`https://${HOST}`);
    // The service worker registers and controls the page: only in a secure context.
    expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
    await waitForServiceWorker(page);

    // Sharing the list is when the app asks; the subscription is saved through Traefik.
    await page.goto('/wishlist');
    const saved = await turnOnPushBySharing(page);
    expect(new URL(saved.url()).host).toBe(HOST);

    // A cousin joins the owner's family: a notification pod pushes it, encrypted for this device.
    const family = await callApi<{ id: string; invite: { token: string } }>(await idToken(owner), 'POST', '/api/families', { name: 'The Cluster Pushers' });
    await callApi(await idToken(cousin), 'POST', `/api/invites/${family.invite.token}/accept`);
    const payload = await Promise.race([
      pushService.next(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no push reached ${process.env.E2E_PUSH_ADDR} in 45 s (notification's egress and PUSH_ALLOW)`)), 45_000),
      ),
    ]);
    expect(JSON.parse(payload)).toMatchObject({ title: `${cousin.name} joined The Cluster Pushers`, url: '/family' });

    // The browser hands it to the service worker, which shows it.
    const { shown } = await deliverToServiceWorker(context, page, payload);
    expect(shown.map((n) => n.title)).toEqual([`${cousin.name} joined The Cluster Pushers`]);
    await context.close();
  } finally {
    await pushService.stop();
  }
});
