import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { expectAccessible, expectToast, snap } from './support/app';
import { USER_STATE } from './support/env';

test.use({ storageState: USER_STATE });

test('add an item by text, find it in its category and the badge, then remove it', async ({ page }) => {
  await page.goto('/wishlist');
  await expect(page.getByRole('heading', { name: 'Your Wishlist is Empty' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Describe an Item' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Take a Photo' })).toBeVisible();
  await snap(page, 'wishlist-empty');
  await expectAccessible(page, 'empty wishlist');

  await page.getByRole('link', { name: 'Describe an Item' }).click();
  await expect(page).toHaveURL(/\/text-prompt$/);
  await snap(page, 'add-item');
  await expectAccessible(page, 'add item form');

  const submit = page.getByRole('button', { name: 'Add to Wishlist' });
  await submit.click();
  await expect(page.getByText('Item name must be at least 3 characters.')).toBeVisible();
  await expect(page.getByText('Please provide a detailed description (at least 10 characters).')).toBeVisible();
  await expect(page.getByText('Please select a category.')).toBeVisible();
  await snap(page, 'add-item-errors');
  await expectAccessible(page, 'add item form with errors');

  await page.getByLabel('Gift Name').fill('Wooden sled');
  await page.getByLabel('Description').fill('A red wooden sled with room for two');
  await page.getByLabel('Category').selectOption({ label: 'Toys & Games' });
  await page.getByLabel('Price (estimate)').fill('$89');
  await page.getByLabel(/Search Keywords/).fill('sl');
  await page.getByLabel(/Item Image URL/).fill('not a url');
  await submit.click();
  await expect(page.getByText('Please provide a search query for the product.')).toBeVisible();
  await expect(page.getByText('Please provide a valid image URL or leave it blank.')).toBeVisible();
  await expect(page.getByText('Item name must be at least 3 characters.')).toHaveCount(0);

  await page.getByLabel(/Search Keywords/).fill('wooden sled for two');
  await page.getByLabel(/Item Image URL/).fill('');
  // A real PNG (the app's own icon) as the chosen photo.
  await page.getByLabel('Take Photo or Choose Image').setInputFiles(fileURLToPath(new URL('../public/icons/icon-192.png', import.meta.url)));
  await expectToast(page, 'Image uploaded!');
  await expect(page.getByText('Image Preview')).toBeVisible();

  await submit.click();
  await expectToast(page, 'Success!', 'Item added to your wishlist');
  await expect(page).toHaveURL(/\/wishlist$/);

  const card = page.getByTestId('wishlist-item').filter({ hasText: 'Wooden sled' });
  await expect(card).toBeVisible();
  await expect(page.getByTestId('wishlist-count')).toHaveText('1');
  await page.getByRole('tab', { name: 'Toys' }).click();
  await expect(page.getByRole('tab', { name: 'Toys' })).toHaveAttribute('aria-selected', 'true');
  await expect(card).toBeVisible();
  await expect(card).toContainText('$89');
  await page.getByRole('button', { name: 'Close notification' }).click();
  await snap(page, 'wishlist');
  await expectAccessible(page, 'wishlist');

  // One column on a phone, two on a tablet, three on a desktop.
  const columns = () =>
    page.locator('.item-grid').evaluate((grid) => getComputedStyle(grid).gridTemplateColumns.split(' ').length);
  expect(await columns()).toBe(1);
  await page.setViewportSize({ width: 800, height: 900 });
  expect(await columns()).toBe(2);
  await page.setViewportSize({ width: 1280, height: 900 });
  expect(await columns()).toBe(3);
  await page.setViewportSize({ width: 390, height: 844 });

  // No internet here: the shop answers with a stand-in page, so only the address is checked.
  await page.context().route(/^https:\/\/www\.google\.com\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Shop</title><p>shop</p>' }),
  );
  const popup = page.waitForEvent('popup');
  await card.getByRole('button', { name: /Shop/ }).click();
  const shop = await popup;
  await shop.waitForLoadState();
  const shopUrl = new URL(shop.url());
  expect(shopUrl.hostname).toBe('www.google.com');
  expect(shopUrl.searchParams.get('q')).toBe('wooden sled for two');
  await shop.close();

  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe('Are you sure you want to remove this item from your wishlist?');
    void dialog.accept();
  });
  await card.getByRole('button', { name: 'Remove Wooden sled' }).click();
  await expectToast(page, 'Item removed', 'Item has been removed from your wishlist.');
  await expect(page.getByRole('heading', { name: 'Your Wishlist is Empty' })).toBeVisible();
  await expect(page.getByTestId('wishlist-count')).toHaveCount(0);
});

test('a failing image URL is reported', async ({ page }) => {
  await page.goto('/text-prompt');
  await page.getByLabel(/Item Image URL/).fill(new URL('/no-such-image.png', page.url()).href);
  await expectToast(page, 'Image Error', 'Could not load the image URL. Please try a different one.');
});

test('Cancel returns home', async ({ page }) => {
  await page.goto('/text-prompt');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/$/);
});
