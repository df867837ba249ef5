import { expect, test } from '@playwright/test';

test.use({ serviceWorkers: 'allow' });

test('the service worker opens the app shell offline and never caches /api', async ({ page, context }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Did You Know?' })).toBeVisible();
  // Wait until the worker is installed, has filled its caches and controls the page.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    }
  });
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const keys = await caches.keys();
        const all = await Promise.all(keys.map(async (k) => (await (await caches.open(k)).keys()).map((r) => r.url)));
        return all.flat();
      }),
    )
    .toEqual(expect.arrayContaining([expect.stringContaining('/index.html'), expect.stringContaining('/assets/')]));

  const cached = await page.evaluate(async () => {
    const keys = await caches.keys();
    const all = await Promise.all(keys.map(async (k) => (await (await caches.open(k)).keys()).map((r) => r.url)));
    return all.flat();
  });
  expect(cached.filter((u) => new URL(u).pathname.startsWith('/api/'))).toEqual([]);

  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Did You Know?' })).toBeVisible();
    // A screen that was never opened online comes from the precached build too.
    await page.getByRole('link', { name: 'Having login issues?' }).or(page.getByRole('banner').getByRole('link', { name: 'Log In' })).first().click();
    await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  } finally {
    await context.setOffline(false);
  }
});
