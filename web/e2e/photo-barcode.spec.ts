import { expectAccessible, expectToast, snap } from './support/app';
import { CAMERA_CODE, cameraNotYetAllowed, cameraTest as test, expect, productJpeg } from './support/photo';
import { upcA } from './support/upca';

test('a barcode in front of the camera is read to the right digits', async ({ page }) => {
  await cameraNotYetAllowed(page);
  await page.goto('/scan');
  await expect(page).toHaveURL(/\/camera\?mode=scan$/);
  await expectToast(page, 'Scan Mode Activated');
  await page.getByRole('button', { name: 'Enable Camera Access' }).click();
  // The live scanner reads the fake camera's code by itself; the product overlay (a code no
  // database knows) goes on to the editor.
  await expect(page.getByTestId('scanned-product').getByRole('dialog')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('scanned-product').getByRole('button', { name: 'Decorate with Stickers' }).click();
  await expect(page).toHaveURL(/\/edit-photo\?source=scan$/);
  await expectToast(page, 'Barcode Detected', CAMERA_CODE);
  const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('scanResult')))!) as Record<string, string>;
  expect(stored).toEqual({ type: 'barcode', value: CAMERA_CODE, timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  expect(Math.abs(Date.now() - Date.parse(stored.timestamp))).toBeLessThan(60_000);
  await expect(page.getByTestId('scan-notice')).toContainText(CAMERA_CODE);
  // The frame the code was read in is the photo to decorate.
  expect(await page.evaluate(() => localStorage.getItem('capturedImage'))).toMatch(/^data:image\/jpeg;base64,/);
  await expect(page.locator('.sticker-stage canvas').first()).toBeVisible();
});

test('without the camera, a photo of a barcode is read instead (file fallback)', async ({ page, browser }) => {
  const code = upcA('49634061000');
  const photo = await productJpeg(browser, code);
  await cameraNotYetAllowed(page);
  await page.goto('/camera?mode=scan');
  await page.getByRole('button', { name: 'Continue without a camera' }).click();
  await expect(page.getByTestId('viewfinder')).toHaveAttribute('data-status', 'simulation');
  await expect(page.getByRole('heading', { level: 1, name: 'Scan a Barcode' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Flash/ })).toBeDisabled();
  await expect(page.getByRole('note')).toContainText('Could not access camera. Using simulation mode.');
  await page.getByRole('button', { name: 'Close notification' }).click();
  await snap(page, 'camera-barcode-simulation');
  await expectAccessible(page, 'camera in barcode simulation mode');

  await page.getByLabel('Scan a photo').setInputFiles({ name: 'label.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByTestId('scanned-product').getByRole('dialog')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('scanned-product').getByRole('button', { name: 'Decorate with Stickers' }).click();
  await expect(page).toHaveURL(/\/edit-photo\?source=scan$/);
  const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('scanResult')))!) as { value: string };
  expect(stored.value).toBe(code);
});

test('simulation mode finds its sample code after 1.5 s', async ({ page }) => {
  await cameraNotYetAllowed(page);
  await page.goto('/camera?mode=scan');
  await page.getByRole('button', { name: 'Continue without a camera' }).click();
  const started = Date.now();
  await page.getByRole('button', { name: 'Scan barcode' }).click();
  await expectToast(page, 'Scanning for barcode...');
  await expect(page.getByTestId('scanned-product').getByRole('dialog')).toBeVisible();
  expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
  await page.getByTestId('scanned-product').getByRole('button', { name: 'Decorate with Stickers' }).click();
  await expect(page).toHaveURL(/\/edit-photo\?source=scan$/);
  await expectToast(page, 'Barcode Detected', '012345678905');
});
