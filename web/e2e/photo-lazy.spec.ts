import type { Page } from '@playwright/test';
import { cameraNotYetAllowed, cameraTest as test, expect } from './support/photo';

// Strings found only in each library's code (checked against the build).
const KONVA = 'Konva warning';
const HTML5_QRCODE = 'HTML Element with id=';

/** Records the code of every script the page downloads. */
function scripts(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') {
      void response.text().then((text) => bodies.push(text), () => undefined);
    }
  });
  return bodies;
}

const loaded = (bodies: string[], marker: string) => bodies.some((b) => b.includes(marker));

test('Konva and html5-qrcode are downloaded only by the screens that use them', async ({ page }) => {
  const bodies = scripts(page);
  await cameraNotYetAllowed(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Did You Know?' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(bodies.length).toBeGreaterThan(0);
  expect(loaded(bodies, KONVA)).toBe(false);
  expect(loaded(bodies, HTML5_QRCODE)).toBe(false);

  // The camera in photo mode needs neither.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Camera' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Take a Photo' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(loaded(bodies, KONVA)).toBe(false);
  expect(loaded(bodies, HTML5_QRCODE)).toBe(false);

  // Barcode mode with the camera on brings the scanner.
  await page.goto('/camera?mode=scan');
  await page.getByRole('button', { name: 'Enable Camera Access' }).click();
  await expect.poll(() => loaded(bodies, HTML5_QRCODE), { timeout: 15_000 }).toBe(true);

  // The scan names its product (or says it is unknown); Decorate opens the editor, which brings Konva.
  await page.getByTestId('scanned-product').getByRole('button', { name: 'Decorate with Stickers' }).click({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/edit-photo/, { timeout: 20_000 });
  await expect(page.locator('.sticker-stage canvas').first()).toBeVisible();
  await expect.poll(() => loaded(bodies, KONVA)).toBe(true);
});
