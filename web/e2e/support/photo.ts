import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { signInWithEmail } from './app';
import { createEmulatorUser } from './emulator';
import { BASE_URL, uniqueEmail } from './env';
import { drawFrame, writeMjpeg } from './fakeCamera';
import { upcA } from './upca';

/** The product in front of the fake camera: its UPC-A code, made by the test's own encoder. */
export const CAMERA_CODE = upcA('03600029145');

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * Tests with a camera: Chromium's fake capture device plays an MJPEG file of a product box with
 * a real UPC-A barcode, drawn by this worker before its browser starts.
 */
export const cameraTest = cameraTestShowing(CAMERA_CODE, 'Toy Racing Car');

/** The same fixtures with another product (code and label) in front of the fake camera. */
export function cameraTestShowing(code: string, label: string) {
  return base.extend<{ signedInState: StorageState }, { fakeVideo: string }>({
  fakeVideo: [
    async ({ playwright }, use, workerInfo) => {
      // A browser of its own paints the frame: the worker's browser starts with the file.
      const painter = await playwright.chromium.launch({
        executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu'],
      });
      const frame = await drawFrame(painter, code, label);
      await painter.close();
      const path = join(tmpdir(), `santa-fake-camera-${code}-${process.pid}-${workerInfo.workerIndex}.mjpeg`);
      writeMjpeg(path, frame);
      await use(path);
    },
    { scope: 'worker' },
  ],
  launchOptions: [
    async ({ launchOptions, fakeVideo }, use) => {
      await use({
        ...launchOptions,
        args: [
          ...(launchOptions.args ?? []),
          '--use-fake-device-for-media-stream',
          '--use-fake-ui-for-media-stream',
          `--use-file-for-fake-video-capture=${fakeVideo}`,
        ],
      });
    },
    { scope: 'worker' },
  ],
  signedInState: async ({ browser }, use) => {
    await use(await newUserState(browser, 'e2e-photo'));
  },
  });
}

/**
 * A fresh account, signed in through the login screen: these specs add items, and the shared
 * setup user's wishlist belongs to the wishlist spec.
 */
export async function newUserState(browser: Browser, prefix: string): Promise<StorageState> {
  const email = uniqueEmail(prefix);
  const password = 'mistletoe-42';
  await createEmulatorUser(email, password, 'Photo Tester');
  const context = await browser.newContext({ baseURL: BASE_URL, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    await page.goto('/firebase-login');
    await signInWithEmail(page, email, password);
    return await context.storageState({ indexedDB: true });
  } finally {
    await context.close();
  }
}

/** A JPEG of the product box (for screens that start from stored images). */
export async function productJpeg(browser: Browser, code: string | null = CAMERA_CODE): Promise<Buffer> {
  return drawFrame(browser, code, 'Toy Racing Car');
}

/**
 * Opens the camera and waits until the live picture is there. The app asks first unless the
 * browser says camera access is already granted (it may, with the fake-UI switch).
 */
export async function openCamera(page: Page, path = '/camera'): Promise<void> {
  await page.goto(path);
  const viewfinder = page.getByTestId('viewfinder');
  const enable = viewfinder.getByRole('button', { name: 'Enable Camera Access' });
  await expect(enable.or(page.locator('[data-testid="viewfinder"][data-status="ready"]'))).toBeVisible();
  if (await enable.isVisible()) await enable.click();
  await expect(viewfinder).toHaveAttribute('data-status', 'ready');
}

/** Makes the browser report camera access as not yet decided, so the app asks first. */
export async function cameraNotYetAllowed(page: Page) {
  await page.addInitScript(() => {
    const query = navigator.permissions.query.bind(navigator.permissions);
    navigator.permissions.query = (descriptor: PermissionDescriptor) =>
      descriptor.name === ('camera' as PermissionName)
        ? Promise.resolve({ state: 'prompt', name: 'camera', onchange: null } as unknown as PermissionStatus)
        : query(descriptor);
  });
}

export { expect };
