import { expect, test, type APIResponse } from '@playwright/test';
import { expectToast, signInWithEmail } from '../support/app';
import { createEmulatorUser, stackAuth } from '../support/emulator';
import { uniqueEmail } from '../support/env';

/**
 * The newcomer's first minutes on a stack that `stack.sh up` (make dev) started: deploy/local/
 * smoke.sh runs it on the smoke profile's ports. One route of every service answers through the
 * gateway, and the app adds a first gift and shows it in the list picker's count.
 */

const PASSWORD = 'snowflake-42';

async function idToken(email: string): Promise<string> {
  const { emulator } = await stackAuth();
  const res = await fetch(`${emulator}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=smoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, returnSecureToken: true }),
  });
  expect(res.ok, `signing in ${email} at the Auth emulator`).toBeTruthy();
  return ((await res.json()) as { idToken: string }).idToken;
}

// A 1x1 PNG: the smallest image media accepts.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function expectStatus(what: string, res: APIResponse, status: number) {
  expect(res.status(), `${what}: ${res.status()} ${await res.text()}`).toBe(status);
}

test('every service answers through the gateway', async ({ request }) => {
  const email = uniqueEmail('smoke-api');
  await createEmulatorUser(email, PASSWORD, 'Smoke Tester');
  const headers = { Authorization: `Bearer ${await idToken(email)}` };

  // gateway
  await expectStatus('gateway /api/config', await request.get('/api/config'), 200);
  // wishlist
  const wishlist = await request.get('/api/wishlist', { headers });
  await expectStatus('wishlist /api/wishlist', wishlist, 200);
  expect(await wishlist.json()).toEqual([]);
  // family
  const families = await request.get('/api/families', { headers });
  await expectStatus('family /api/families', families, 200);
  expect(Array.isArray(await families.json())).toBeTruthy();
  // notification
  await expectStatus('notification /api/notifications', await request.get('/api/notifications', { headers }), 200);
  // vision: a barcode the fake product databases know
  const lookup = await request.post('/api/lookup/barcode', { headers, data: { code: '885909950805' } });
  await expectStatus('vision /api/lookup/barcode', lookup, 200);
  expect(JSON.stringify(await lookup.json())).toContain('iPhone');
  // media: an upload, then the photo at the signed address it answers
  const upload = await request.post('/api/media', {
    headers,
    multipart: { image: { name: 'dot.png', mimeType: 'image/png', buffer: PNG } },
  });
  await expectStatus('media /api/media', upload, 201);
  const stored = (await upload.json()) as { url: string; width: number };
  expect(stored.width).toBe(1);
  await expectStatus('media /media/{key}', await request.get(stored.url), 200);
});

test('a first gift shows in the list picker’s count', async ({ page }) => {
  const email = uniqueEmail('smoke-web');
  await createEmulatorUser(email, PASSWORD, 'Smoke Tester');
  await page.goto('/firebase-login');
  await signInWithEmail(page, email, PASSWORD);

  await page.goto('/wishlist');
  await expect(page.getByRole('heading', { name: 'Your Wishlist is Empty' })).toBeVisible();
  const picker = page.getByRole('combobox', { name: 'List' });
  await expect(picker.getByRole('option', { name: 'My Wishlist (0)' })).toBeAttached();

  await page.getByRole('link', { name: 'Describe an Item' }).click();
  await page.getByLabel('Gift Name').fill('Wooden sled');
  await page.getByLabel('Description').fill('A red wooden sled with room for two');
  await page.getByLabel('Category').selectOption({ label: 'Toys & Games' });
  await page.getByLabel(/Search Keywords/).fill('wooden sled for two');
  await page.getByRole('button', { name: 'Add to Wishlist' }).click();
  await expectToast(page, 'Success!', 'Item added to your wishlist');
  await expect(page).toHaveURL(/\/wishlist$/);
  await expect(page.getByTestId('wishlist-item').filter({ hasText: 'Wooden sled' })).toBeVisible();
  await expect(picker.getByRole('option', { name: 'My Wishlist (1)' })).toBeAttached();
  await expect(picker).toHaveValue(/.+/);
  await expect(picker.locator('option:checked')).toHaveText('My Wishlist (1)');
});
