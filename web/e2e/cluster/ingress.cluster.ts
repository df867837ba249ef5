import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { contextFor, expectToast, signInWithEmail } from '../support/app';
import { BASE_URL } from '../support/env';
import { mapHostForFetch } from '../support/hostMap';
import { newPerson, PASSWORD, type Person } from '../support/people';

/**
 * The web app on the local cluster (deploy/cluster/k8s-test.sh), in Chromium, through the
 * ingress controller (Traefik) on the Ingress's host name: nothing here reaches a Service
 * directly but the Auth emulator. Two people sign in at the cluster's emulator; the owner adds a
 * gift and shares the list, the aunt claims it, and the uncle, who has the list open, sees it
 * taken live: the notification stream (SSE) through Traefik. Screenshots go to
 * E2E_SCREENSHOT_DIR (k8s-test's results).
 */

mapHostForFetch();
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? 'test-results/screenshots';
const HOST = new URL(BASE_URL).host;

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(350);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), animations: 'disabled', caret: 'hide' });
}

async function signIn(page: Page, person: Person): Promise<void> {
  await page.goto('/login');
  await signInWithEmail(page, person.email, PASSWORD);
}

/** When each of the page's notification streams got its answer's headers (200), through the ingress. */
function streamsOpened(page: Page): number[] {
  const at: number[] = [];
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === '/api/notifications/stream' && r.status() === 200) at.push(Date.now());
  });
  return at;
}

test('through the ingress: sign in, add a gift, share the list, a claim seen live by another', async ({ browser }) => {
  test.setTimeout(180_000);
  const [ownerP, auntP, uncleP] = await Promise.all([
    newPerson('ingress-owner', 'Tom'),
    newPerson('ingress-aunt', 'Aunt Ann'),
    newPerson('ingress-uncle', 'Uncle Bob'),
  ]);
  const owner = await contextFor(browser);
  const aunt = await contextFor(browser);
  const uncle = await contextFor(browser);

  // The owner signs in (the Auth emulator in the cluster) on the ingress's host name.
  await signIn(owner.page, ownerP);
  expect(new URL(owner.page.url()).host).toBe(HOST);

  // ...and adds a gift through the app's form.
  await owner.page.goto('/wishlist');
  await expect(owner.page.getByRole('heading', { name: 'Your Wishlist is Empty' })).toBeVisible();
  await owner.page.getByRole('link', { name: 'Describe an Item' }).click();
  await owner.page.getByLabel('Gift Name').fill('Wooden sled');
  await owner.page.getByLabel('Description').fill('A red wooden sled with room for two');
  await owner.page.getByLabel('Category').selectOption({ label: 'Toys & Games' });
  await owner.page.getByLabel(/Search Keywords/).fill('wooden sled for two');
  await owner.page.getByRole('button', { name: 'Add to Wishlist' }).click();
  await expectToast(owner.page, 'Success!', 'Item added to your wishlist');
  await expect(owner.page).toHaveURL(/\/wishlist$/);
  await expect(owner.page.getByTestId('wishlist-item').filter({ hasText: 'Wooden sled' })).toBeVisible();
  await shot(owner.page, 'cluster-wishlist');

  // The owner makes the list's share link.
  await owner.page.getByRole('button', { name: 'Share', exact: true }).click();
  const settings = owner.page.getByRole('dialog', { name: 'My Wishlist: sharing' });
  await settings.getByRole('button', { name: 'Make a share link' }).click();
  const linkField = settings.getByLabel(/Anyone with this link/);
  await expect(linkField).toHaveValue(/\/l\/[A-Za-z0-9_-]{22,}$/);
  const link = new URL(await linkField.inputValue());
  // The link is on the host the app was opened at: the ingress's.
  expect(link.host).toBe(HOST);
  await shot(owner.page, 'cluster-share-link');
  await settings.getByRole('button', { name: 'Done' }).click();

  // The uncle signs in and opens the list; his notification stream is open through Traefik.
  const uncleStreams = streamsOpened(uncle.page);
  await signIn(uncle.page, uncleP);
  const opening = Date.now();
  await uncle.page.goto(link.pathname);
  await expect.poll(() => uncleStreams.some((at) => at >= opening), { timeout: 20_000 }).toBe(true);
  const uncleSled = uncle.page.getByTestId('shared-item').filter({ hasText: 'Wooden sled' });
  await expect(uncleSled.getByRole('button', { name: "I'll get this: Wooden sled" })).toBeVisible();

  // The aunt signs in, opens the link and claims the sled.
  await signIn(aunt.page, auntP);
  await aunt.page.goto(link.pathname);
  const auntSled = aunt.page.getByTestId('shared-item').filter({ hasText: 'Wooden sled' });
  await auntSled.getByRole('button', { name: "I'll get this: Wooden sled" }).click();
  await expect(auntSled).toContainText('You are getting 1');
  await shot(aunt.page, 'cluster-claimed');

  // The uncle sees it taken without reloading: shared-list-changed, streamed through the ingress.
  const claimed = Date.now();
  await expect(uncleSled).toContainText('Taken', { timeout: 20_000 });
  await expect(uncleSled.getByRole('button', { name: "I'll get this: Wooden sled" })).toHaveCount(0);
  console.log(`the uncle saw the claim live, ${Date.now() - claimed} ms after the aunt's page showed it`);
  await shot(uncle.page, 'cluster-taken-live');

  // Every answer the three browsers read came from the ingress's host.
  for (const who of [owner, aunt, uncle]) {
    expect(who.bodies.length).toBeGreaterThan(0);
    for (const body of who.bodies) expect(new URL(body.split(' ')[0]).host).toBe(HOST);
  }
  await Promise.all([owner.context.close(), aunt.context.close(), uncle.context.close()]);
});
