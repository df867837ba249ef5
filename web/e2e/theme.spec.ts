import { expect, test } from '@playwright/test';
import { expectAccessible, snap } from './support/app';
import { USER_STATE } from './support/env';

// Dark mode: the system's prefers-color-scheme decides until the avatar menu's switch does.
// Every screen reached here is checked with axe in the dark theme and photographed as dark-*.png.

test.describe('dark theme from the system', () => {
  test.use({ colorScheme: 'dark' });

  for (const [path, name, ready] of [
    ['/', 'home', 'Did You Know?'],
    ['/no/such/page', 'not-found', '404 Page Not Found'],
    ['/firebase-login', 'login', "Santa's Wishlist"],
    ['/image-recognition', 'image-recognition', 'AI Image Recognition'],
  ] as const) {
    test(`${name} is dark and accessible`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: ready })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      await snap(page, `dark-${name}`);
      await expectAccessible(page, `${name} (dark)`);
    });
  }

  test('camera is dark and accessible', async ({ page }) => {
    await page.goto('/camera');
    await expect(page.getByTestId('viewfinder')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await snap(page, 'dark-camera');
    await expectAccessible(page, 'camera (dark)');
  });
});

test.describe('dark theme chosen in the avatar menu', () => {
  test.use({ storageState: USER_STATE, colorScheme: 'light' });

  test('the switch turns dark mode on, it is remembered, and signed-in screens stay accessible', async ({ page }) => {
    await page.goto('/wishlist');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await page.getByRole('button', { name: /^Account menu for / }).click();
    const item = page.getByRole('menuitemcheckbox', { name: 'Dark mode' });
    await expect(item).toHaveAttribute('aria-checked', 'false');
    await item.click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await snap(page, 'dark-avatar-menu');
    await expectAccessible(page, 'avatar menu (dark)');
    await page.keyboard.press('Escape');

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await snap(page, 'dark-wishlist');
    await expectAccessible(page, 'wishlist (dark)');

    await page.goto('/text-prompt');
    await page.getByRole('button', { name: 'Add to Wishlist' }).click();
    await expect(page.getByText('Item name must be at least 3 characters.')).toBeVisible();
    await snap(page, 'dark-add-item-errors');
    await expectAccessible(page, 'add item form with errors (dark)');
  });
});
