import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expectToast } from '../support/app';
import { BASE_URL } from '../support/env';
import { mapHostForFetch } from '../support/hostMap';
import { CAMERA_CODE, cameraNotYetAllowed, cameraTest as test, expect, openCamera } from '../support/photo';

/**
 * What only a secure context allows, on the local cluster through the ingress over HTTPS
 * (deploy/cluster/k8s-test.sh): the camera. Chromium trusts the cluster's local CA (its NSS
 * database), so https://santa.localtest is a secure context with a valid certificate; over the
 * plain HTTP of before, getUserMedia did not exist there. The fake capture device plays a product
 * box with a UPC-A code (support/photo.ts), as in the local suite's photo and barcode specs.
 */

mapHostForFetch();
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? 'test-results/screenshots';
const HOST = new URL(BASE_URL).host;

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), animations: 'disabled', caret: 'hide' });
}

/** The page is the app on the ingress's host over HTTPS, and the browser calls it secure. */
async function expectSecure(page: Page): Promise<void> {
  const url = new URL(page.url());
  expect(`${url.protocol}//${url.host}`).toBe(`https://${HOST}`);
  expect(await page.evaluate(() => window.isSecureContext && typeof navigator.mediaDevices?.getUserMedia === 'function')).toBe(true);
}

test.describe('through the ingress over HTTPS', () => {
  test.use({ storageState: async ({ signedInState }, use) => use(signedInState) });

  test('a photo from the camera, analysed by the cluster, into the sticker editor', async ({ page }) => {
    test.setTimeout(120_000);
    await openCamera(page);
    await expectSecure(page);
    await page.getByRole('button', { name: 'Take photo' }).click();
    const overlay = page.getByRole('dialog', { name: 'Product Recognition' });
    await expect(overlay).toBeVisible();
    await expectToast(page, 'Image Captured!');
    // The photo goes to vision (and the fake Gemini) through Traefik.
    const analysis = page.waitForResponse((r) => r.url().endsWith('/api/vision/analyze'));
    await overlay.getByRole('button', { name: 'Analyze Image' }).click();
    const answer = await analysis;
    expect(answer.status()).toBe(200);
    expect(new URL(answer.url()).host).toBe(HOST);
    const analyzed = (await answer.json()) as { name: string };
    await expect(page.getByTestId('analysis-result').getByRole('heading', { name: analyzed.name })).toBeVisible();
    await shot(page, 'cluster-https-photo');
    await overlay.getByRole('button', { name: 'Decorate with Stickers' }).click();
    await expect(page).toHaveURL(/\/edit-photo$/);
    expect(await page.evaluate(() => localStorage.getItem('capturedImage'))).toMatch(/^data:image\/jpeg;base64,/);
    await expect(page.locator('.sticker-stage canvas').first()).toBeVisible();
  });

  test('a barcode read from the camera', async ({ page }) => {
    test.setTimeout(120_000);
    await cameraNotYetAllowed(page);
    await page.goto('/scan');
    await expect(page).toHaveURL(/\/camera\?mode=scan$/);
    await expectSecure(page);
    await page.getByRole('button', { name: 'Enable Camera Access' }).click();
    // The live scanner reads the fake camera's code by itself.
    await expect(page.getByTestId('scanned-product').getByRole('dialog')).toBeVisible({ timeout: 30_000 });
    await shot(page, 'cluster-https-barcode');
    await page.getByTestId('scanned-product').getByRole('button', { name: 'Decorate with Stickers' }).click();
    await expect(page).toHaveURL(/\/edit-photo\?source=scan$/);
    await expectToast(page, 'Barcode Detected', CAMERA_CODE);
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('scanResult')))!) as { type: string; value: string };
    expect(stored).toMatchObject({ type: 'barcode', value: CAMERA_CODE });
  });
});
