import { expect, test } from '@playwright/test';
import { expectAccessible, snap } from './support/app';

test('home shows the countdown, a fact, the four tiles and the log-in card', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('countdown-days').or(page.getByText('Merry Christmas!'))).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Did You Know?' })).toBeVisible();
  const tiles = page.getByRole('navigation', { name: 'Add gifts' }).getByRole('link');
  await expect(tiles).toHaveText(['Take Photo of your gift', 'Scan UPC code of item', 'View Wishlist', 'Add with Text']);
  await expect(page.getByRole('heading', { name: 'Log in to Save Your Wishlist!' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/firebase-login');
  await snap(page, 'home');
  await expectAccessible(page, 'home');
});

test('an unknown path shows the 404 page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  await expect(page).toHaveTitle('404 Page Not Found');
  await snap(page, 'not-found');
  await expectAccessible(page, '404');
});

test('/scan opens the camera in barcode mode with Camera highlighted', async ({ page }) => {
  await page.goto('/scan');
  await expect(page).toHaveURL(/\/camera\?mode=scan$/);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Camera' })).toHaveAttribute('aria-current', 'page');
  await snap(page, 'camera');
  await expectAccessible(page, 'camera');
});

test('the bottom navigation moves between the three screens', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Camera' }).click();
  await expect(page).toHaveURL(/\/camera$/);
  await nav.getByRole('link', { name: 'Wishlist' }).click();
  await expect(page.getByRole('dialog', { name: 'Authentication Required' })).toBeVisible();
  await page.getByRole('button', { name: 'Back to Home' }).click();
  await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
});

test('the login troubleshooting page', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Having login issues?' }).click();
  await expect(page).toHaveURL(/\/firebase-debug$/);
  await expect(page.getByRole('heading', { name: 'Login Troubleshooting' })).toBeVisible();
  await expect(page.getByText('demo-santa', { exact: true })).toBeVisible();
  await snap(page, 'firebase-debug');
  await expectAccessible(page, 'firebase debug');
});

for (const path of ['/edit-photo', '/gift-options', '/confirmation', '/share-options', '/image-recognition']) {
  test(`${path} is reachable and accessible`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page, path);
  });
}

test('the Santa overlay and the bottom toast answer their page events', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Did You Know?' })).toBeVisible();
  await page.evaluate(() => window.dispatchEvent(new CustomEvent('show-toast', { detail: 'Added to Wishlist' })));
  await expect(page.getByTestId('shell-toast')).toHaveText('Added to Wishlist');
  await page.evaluate(() => window.dispatchEvent(new CustomEvent('show-santa-animation')));
  const overlay = page.getByTestId('santa-overlay');
  await expect(overlay).toContainText('Ho Ho Ho!');
  await expect(overlay).toContainText('Santa received your gift request!');
  await expect(overlay.locator('.santa-overlay__particle')).toHaveCount(50);
  await snap(page, 'santa-overlay');
  await expectAccessible(page, 'santa overlay');
  await expect(overlay).toBeHidden({ timeout: 5000 });
  await expect(page.getByTestId('shell-toast')).toBeHidden();
});

test('the daily background is loaded and remembered', async ({ page }) => {
  await page.goto('/');
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('currentBackgroundTheme')))
    .toContain('/backgrounds/');
  const theme = JSON.parse((await page.evaluate(() => localStorage.getItem('currentBackgroundTheme')))!);
  const expectedId = await page.evaluate(() => (new Date().getDate() % 11) + 1);
  expect(theme.id).toBe(expectedId);
});

test('the app is installable: manifest and icons', async ({ page, request }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = await (await request.get(href!)).json();
  expect(manifest.display).toBe('standalone');
  expect(manifest.start_url).toBe('/');
  for (const icon of manifest.icons) {
    const res = await request.get(icon.src);
    expect(res.ok(), icon.src).toBeTruthy();
  }
  expect(manifest.icons.some((i: { sizes: string }) => i.sizes === '512x512')).toBe(true);
});
