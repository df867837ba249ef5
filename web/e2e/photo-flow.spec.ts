import type { Locator, Page } from '@playwright/test';
import { expectAccessible, expectToast, snap } from './support/app';
import { cameraTest as test, expect, openCamera } from './support/photo';

interface Placed {
  x: number;
  y: number;
  width: number;
  height: number;
  selected: boolean;
}

/** The stickers on the canvas, read from the editor's screen-reader list. */
async function placed(page: Page): Promise<Placed[]> {
  return page.getByTestId('placed-stickers').locator('li').evaluateAll((items) =>
    items.map((li) => ({
      x: Number(li.getAttribute('data-x')),
      y: Number(li.getAttribute('data-y')),
      width: Number(li.getAttribute('data-width')),
      height: Number(li.getAttribute('data-height')),
      selected: li.getAttribute('data-selected') === 'true',
    })),
  );
}

/** Drags with the mouse from one canvas point to another, in small steps like a hand. */
async function drag(page: Page, canvas: Locator, from: { x: number; y: number }, to: { x: number; y: number }) {
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + from.x, box.y + from.y);
  await page.mouse.down();
  await page.mouse.move(box.x + to.x, box.y + to.y, { steps: 12 });
  await page.mouse.up();
}

/** Takes a photo with the fake camera and closes the overlay into the editor. */
async function photoToEditor(page: Page) {
  await openCamera(page);
  await page.getByRole('button', { name: 'Take photo' }).click();
  await expect(page.getByRole('dialog', { name: 'Product Recognition' })).toBeVisible();
  await page.getByRole('button', { name: 'Decorate with Stickers' }).click();
  await expect(page).toHaveURL(/\/edit-photo$/);
  await expect(page.locator('.sticker-stage canvas').first()).toBeVisible();
  // The capture's toast ("Image Captured!", 5 s) never covers Next: toasts grow up from above the bottom navigation.
  const next = (await page.getByRole('button', { name: 'Next' }).boundingBox())!;
  const toasts = await page.locator('.toaster').evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom };
  });
  expect(toasts.bottom).toBeGreaterThan(next.y + next.height + 300);
  const toast = page.getByTestId('toast');
  if (await toast.isVisible()) expect((await toast.boundingBox())!.y).toBeGreaterThan(next.y + next.height);
}

/** Next in the editor; returns what the AI answered for the gift. */
async function nextToGiftOptions(page: Page): Promise<{ name: string; price: string; source: string }> {
  // The request reaches the real service, a moment late, so 'Processing...' and its toast can
  // be seen on a busy machine too.
  await page.route('**/api/vision/generate', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await route.continue();
  });
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/vision/generate') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('button', { name: /Processing\.\.\./ })).toBeVisible();
  await expectToast(page, 'AI analysis in progress', 'Identifying gift details using AI...');
  const response = await answer;
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { name: string; price: string; source: string };
  const sent = response.request().postDataJSON() as { mode: string; image: string };
  expect(sent.mode).toBe('gift');
  expect(sent.image).toMatch(/^data:image\/jpeg;base64,/);
  await expect(page).toHaveURL(/\/gift-options$/);
  return body;
}

test.describe('signed in', () => {
  test.use({ storageState: async ({ signedInState }, use) => use(signedInState) });

  test('photo → recognition → stickers → AI gift → Send to Santa → confirmation', async ({ page }) => {
    test.setTimeout(120_000);
    // The camera (the fake device plays a product box).
    await openCamera(page);
    await expectToast(page, 'Back Camera Ready');
    await expect(page.getByRole('button', { name: /Flash/ })).toBeEnabled();
    await page.getByRole('button', { name: 'Close notification' }).click();
    await snap(page, 'camera');
    await expectAccessible(page, 'camera');

    // Photo, then the AI's analysis in the overlay.
    await page.getByRole('button', { name: 'Take photo' }).click();
    const overlay = page.getByRole('dialog', { name: 'Product Recognition' });
    await expect(overlay).toBeVisible();
    await expectToast(page, 'Image Captured!');
    const analysis = page.waitForResponse((r) => r.url().endsWith('/api/vision/analyze'));
    await overlay.getByRole('button', { name: 'Analyze Image' }).click();
    const analyzed = (await (await analysis).json()) as { name: string; category: string };
    const result = page.getByTestId('analysis-result');
    await expect(result.getByRole('heading', { name: analyzed.name })).toBeVisible();
    await expect(result).toContainText(`Category${analyzed.category}`);
    await expectToast(page, 'Analysis Complete');
    await expect(overlay.getByRole('button', { name: 'Add to List' })).toBeEnabled();
    await page.getByRole('button', { name: 'Close notification' }).click();
    await snap(page, 'recognition-overlay');
    await expectAccessible(page, 'recognition overlay');

    // Closing keeps the photo and opens the editor.
    await overlay.getByRole('button', { name: 'Decorate with Stickers' }).click();
    await expect(page).toHaveURL(/\/edit-photo$/);
    expect(await page.evaluate(() => localStorage.getItem('capturedImage'))).toMatch(/^data:image\/jpeg;base64,/);
    const canvas = page.getByTestId('editor-canvas');
    await expect(page.locator('.sticker-stage canvas').first()).toBeVisible();
    const size = (await canvas.boundingBox())!;
    expect(Math.round(size.width)).toBe(390 - 32);
    expect(Math.round(size.height)).toBe(Math.round(844 * 0.6));
    await expect(page.getByText('Tap to add, drag to move, select and use the bin icon to remove.')).toBeVisible();
    await expect(page.getByRole('group', { name: 'Stickers' }).getByRole('button')).toHaveCount(19);

    // Add a Santa hat and move it to the bottom-right corner with the mouse.
    await page.getByRole('button', { name: 'Add Santa Hat' }).click();
    await expect(canvas).toHaveAttribute('data-stickers', '1');
    const [hat] = await placed(page);
    expect(hat).toMatchObject({ width: 100, height: 100, selected: true });
    expect(hat.x).toBeGreaterThanOrEqual(50);
    expect(hat.y).toBeLessThanOrEqual(250);
    const target = { x: size.width - 130, y: size.height - 130 };
    await drag(page, canvas, { x: hat.x + 50, y: hat.y + 50 }, { x: target.x + 50, y: target.y + 50 });
    await expect.poll(async () => (await placed(page))[0]).toMatchObject({ x: Math.round(target.x), y: Math.round(target.y) });

    // A second sticker (it lands above the hat's new place), then make it bigger with the handle.
    await page.getByRole('button', { name: 'Add Snowman' }).click();
    await expect(canvas).toHaveAttribute('data-stickers', '2');
    const snowman = (await placed(page))[1];
    expect(snowman.selected).toBe(true);
    await drag(
      page,
      canvas,
      { x: snowman.x + snowman.width, y: snowman.y + snowman.height },
      { x: snowman.x + snowman.width + 40, y: snowman.y + snowman.height + 40 },
    );
    await expect.poll(async () => (await placed(page))[1].width).toBeGreaterThan(120);
    await expect(page.getByRole('button', { name: 'Delete the selected sticker' })).toBeVisible();

    // Tap empty canvas: nothing selected, no bin. Touch the hat: it is selected; the bin removes it.
    const box = (await canvas.boundingBox())!;
    await page.touchscreen.tap(box.x + 8, box.y + size.height - 8);
    await expect(page.getByRole('button', { name: 'Delete the selected sticker' })).toBeHidden();
    await page.touchscreen.tap(box.x + target.x + 50, box.y + target.y + 50);
    await expect.poll(async () => (await placed(page)).map((s) => s.selected)).toEqual([true, false]);
    await page.getByRole('button', { name: 'Delete the selected sticker' }).click();
    await expect(canvas).toHaveAttribute('data-stickers', '1');
    await expect(page.getByTestId('placed-stickers')).toContainText('Snowman');
    await page.touchscreen.tap(box.x + snowman.x + 30, box.y + snowman.y + 30);
    await snap(page, 'sticker-editor');
    await expectAccessible(page, 'sticker editor');

    // Next: the flattened photo goes to the AI; the gift options show its answer.
    const gift = await nextToGiftOptions(page);
    expect(await page.evaluate(() => localStorage.getItem('editedImage'))).toMatch(/^data:image\/jpeg;base64,/);
    await expect(page.getByTestId('gift-name')).toHaveText(gift.name);
    await expect(page.getByTestId('gift-price')).toHaveText(gift.price);
    if (gift.source === 'gemini') await expect(page.getByText('AI Enhanced')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Share Gift Idea' })).toHaveAttribute('href', '/share-options');
    await page.waitForTimeout(3000); // the progress toast goes by itself
    await snap(page, 'gift-options');
    await expectAccessible(page, 'gift options');

    // Send to Santa: the overlay, the request, then the confirmation 3.5 s later.
    const santa = page.waitForResponse((r) => r.url().endsWith('/api/santa'));
    const clicked = Date.now();
    await page.getByRole('button', { name: 'Send to Santa' }).click();
    await expect(page.getByTestId('santa-overlay')).toContainText('Santa received your gift request!');
    const saved = await santa;
    expect(saved.status()).toBe(200);
    expect(((await saved.json()) as { sentToSanta: boolean }).sentToSanta).toBe(true);
    await expect(page).toHaveURL(/\/confirmation$/, { timeout: 8000 });
    expect(Date.now() - clicked).toBeGreaterThanOrEqual(3400);
    await expect(page.getByRole('heading', { level: 1, name: `${gift.name} Sent!` })).toBeVisible();
    await expect(page.getByText(/Santa and the elves will review it soon/)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'North Pole News' })).toBeVisible();
    await expect(page.getByText('Save Your Gifts for Next Time')).toHaveCount(0);
    await expect(page.getByTestId('santa-overlay')).toBeHidden();
    await snap(page, 'confirmation');
    await expectAccessible(page, 'confirmation');

    // The gift is on the wishlist, its photo stored by the media service (not as a data URL).
    await page.getByRole('banner').getByRole('link', { name: /^Wishlist/ }).click();
    const card = page.getByTestId('wishlist-item').filter({ hasText: gift.name });
    await expect(card).toBeVisible();
    await expect(card.locator('img')).toHaveAttribute('src', /^\/media\//);
    await expect(page.getByTestId('wishlist-count')).toHaveText('1');
  });

  test('the overlay adds the analysed item to the wishlist', async ({ page }) => {
    await openCamera(page);
    await page.getByRole('button', { name: 'Take photo' }).click();
    const overlay = page.getByRole('dialog', { name: 'Product Recognition' });
    const analysis = page.waitForResponse((r) => r.url().endsWith('/api/vision/analyze'));
    await overlay.getByRole('button', { name: 'Analyze Image' }).click();
    const analyzed = (await (await analysis).json()) as { name: string };
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/wishlist') && r.request().method() === 'POST');
    await overlay.getByRole('button', { name: 'Add to List' }).click();
    const response = await saved;
    expect(response.status()).toBe(201);
    expect(response.request().headers()['idempotency-key']).toBeTruthy();
    const body = response.request().postDataJSON() as { aiGenerated: boolean; imageUrl: string; sentToSanta: boolean };
    expect(body).toMatchObject({ aiGenerated: true, sentToSanta: false });
    expect(body.imageUrl).toMatch(/^data:image\/jpeg;base64,/);
    await expect(overlay.getByRole('button', { name: 'Added' })).toBeDisabled();
    await expect(page).toHaveURL(/\/wishlist$/);
    await expect(page.getByTestId('wishlist-item').filter({ hasText: analyzed.name })).toBeVisible();
  });
});

test.describe('signed out', () => {
  test('the gift flow asks to log in instead of saving', async ({ page }) => {
    test.setTimeout(90_000);
    await photoToEditor(page);
    await page.getByRole('button', { name: 'Add Star' }).click();
    await nextToGiftOptions(page);

    await page.getByRole('button', { name: 'Add to Wishlist' }).click();
    const modal = page.getByRole('dialog', { name: 'Log in to Save Your Gift!' });
    await expect(modal).toContainText('temporarily');
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await expect(modal).toBeHidden();

    await page.getByRole('button', { name: 'Send to Santa' }).click();
    await expect(page.getByTestId('santa-overlay')).toBeVisible();
    await expect(modal).toBeHidden();
    await expect(modal).toBeVisible({ timeout: 6000 });
    await expect(modal.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    await expect(page).toHaveURL(/\/gift-options$/);
    await expect(page.getByTestId('santa-overlay')).toBeHidden();
    await snap(page, 'gift-login-modal');
    await expectAccessible(page, 'login modal');

    // Login keeps the gift and comes back to it.
    await modal.getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => sessionStorage.getItem('redirectAfterLogin'))).toBe('/gift-options');
    expect(await page.evaluate(() => localStorage.getItem('editedImage'))).toMatch(/^data:image\/jpeg/);
  });

  test('the confirmation invites a visitor to log in', async ({ page }) => {
    await page.goto('/confirmation');
    await expect(page.getByRole('heading', { level: 1, name: 'Wishlist Item Sent!' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Save Your Gifts for Next Time' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    await expect(page.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('link', { name: 'Send Another Gift' })).toHaveAttribute('href', '/camera');
  });

  test('the flow screens send a visitor back when their image is missing', async ({ page }) => {
    await page.goto('/share-options');
    await expect(page).toHaveURL(/\/camera$/); // share → gift options → editor → camera
    await page.goto('/gift-options');
    await expect(page).toHaveURL(/\/camera$/);
  });
});
