import { cameraTest as test, expect, newUserState, productJpeg } from './support/photo';
import { BASE_URL } from './support/env';

test('a second device of the same user sees the badge and Santa live', async ({ browser }) => {
  test.setTimeout(90_000);
  const state = await newUserState(browser, 'e2e-live');
  const photo = `data:image/jpeg;base64,${(await productJpeg(browser)).toString('base64')}`;
  const device = { baseURL: BASE_URL, storageState: state, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: 'block' as const };
  const phone = await browser.newContext(device);
  const tablet = await browser.newContext(device);
  try {
    const a = await phone.newPage();
    const b = await tablet.newPage();
    await a.addInitScript((image) => {
      localStorage.setItem('editedImage', image);
      localStorage.setItem('geminiItemName', 'Snow Globe');
      localStorage.setItem('geminiItemDescription', 'A glass snow globe with a tiny village.');
      localStorage.setItem('geminiItemPrice', '$18.50');
      localStorage.setItem('geminiItemSource', 'gemini');
    }, photo);

    // The second device is open on the home screen, listening.
    const streamOpen = b.waitForResponse((r) => r.url().endsWith('/api/notifications/stream') && r.status() === 200);
    await b.goto('/');
    await expect(b.getByRole('button', { name: /^Account menu for / })).toBeVisible();
    await streamOpen;
    await expect(b.getByTestId('wishlist-count')).toHaveCount(0);

    // The first device saves a gift: the second one's badge follows without a reload.
    await a.goto('/gift-options');
    await a.getByRole('button', { name: 'Add to Wishlist' }).click();
    await expect(a.getByRole('button', { name: 'Added to Wishlist' })).toBeDisabled();
    await expect(b.getByTestId('wishlist-count')).toHaveText('1', { timeout: 15_000 });

    // And a Santa request on the first shows the overlay on the second.
    await a.getByRole('button', { name: 'Send to Santa' }).click();
    const overlay = b.getByTestId('santa-overlay');
    await expect(overlay).toBeVisible({ timeout: 15_000 });
    await expect(overlay).toContainText('Santa received your gift request!');
    await expect(b.getByTestId('shell-toast')).toContainText('Snow Globe');
    await expect(a).toHaveURL(/\/confirmation$/, { timeout: 10_000 });
    // The request was for the saved gift (same name): still one item.
    await expect(b.getByTestId('wishlist-count')).toHaveText('1');
  } finally {
    await phone.close();
    await tablet.close();
  }
});
