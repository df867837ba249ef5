import { createServer, type Server } from 'node:http';
import type { Browser } from '@playwright/test';
import { expectToast } from './support/app';
import { ean13 } from './support/ean13';
import { cameraNotYetAllowed, cameraTestShowing, expect } from './support/photo';

/**
 * In the browser: a real EAN-13 barcode in front of the fake camera names its product
 * (the fake product databases know it), which is saved with its picture stored by our media;
 * a pasted shop link (a local "shop" the test stack's vision may reach:
 * LOOKUP_FETCH_TEST_ALLOW=127.0.0.3:18089) fills the add form; the manifest's share target
 * opens the add form with the shared link imported.
 */
const REINDEER = ean13('590123412345'); // 5901234123457, Open Products Facts in the fake
const test = cameraTestShowing(REINDEER, 'Plush Reindeer');

const SHOP_HOST = '127.0.0.3';
const SHOP_PORT = Number(process.env.E2E_SHOP_PORT ?? 18089);
const SHOP = `http://${SHOP_HOST}:${SHOP_PORT}`;

function shopPage(name: string, price: string): string {
  const product = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name,
    description: 'A beech-wood railway with a tunnel, a bridge and two engines.',
    image: `${SHOP}/railway.png`,
    category: 'Toys & Games > Trains',
    offers: { '@type': 'Offer', price, priceCurrency: 'USD' },
  };
  return `<!doctype html><html><head><title>${name} | Toy Shop</title>
<script type="application/ld+json">${JSON.stringify(product)}</script></head>
<body><h1>${name}</h1></body></html>`;
}

let shop: Server;
const shopHits: string[] = [];

async function paintPng(browser: Browser): Promise<Buffer> {
  const page = await browser.newPage();
  try {
    await page.setContent('<div style="width:240px;height:240px;background:linear-gradient(#2a7,#1a4)"></div>');
    return await page.screenshot({ clip: { x: 0, y: 0, width: 240, height: 240 } });
  } finally {
    await page.close();
  }
}

test.beforeAll(async ({ browser }) => {
  const png = await paintPng(browser);
  shop = createServer((req, res) => {
    shopHits.push(req.url ?? '');
    if (req.url === '/railway.png') {
      res.writeHead(200, { 'Content-Type': 'image/png' }).end(png);
    } else if (req.url === '/railway' || req.url === '/shared-railway') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(shopPage('Wooden Railway Set', '49.95'));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    shop.once('error', reject);
    shop.listen(SHOP_PORT, SHOP_HOST, resolve);
  });
});

test.afterAll(async () => {
  await new Promise((resolve) => shop?.close(resolve));
});

test.describe('signed in', () => {
  test.use({ storageState: async ({ signedInState }, use) => use(signedInState) });

  test('a scanned EAN-13 names its product, which is added with its picture from our media', async ({ page }) => {
    await cameraNotYetAllowed(page);
    await page.goto('/camera?mode=scan');
    await page.getByRole('button', { name: 'Enable Camera Access' }).click();
    const overlay = page.getByRole('dialog', { name: 'Product Recognition' });
    await expect(overlay).toBeVisible({ timeout: 20_000 });
    await expectToast(page, 'Barcode Detected', REINDEER);
    await expect(overlay.getByRole('heading', { name: 'Plush Reindeer Rudolph' })).toBeVisible();
    await expect(overlay).toContainText('North Pole Toys');
    await expect(overlay).toContainText('Toys');
    // The product's picture, stored as ours: never the fake database's address.
    const photo = overlay.getByTestId('scanned-product-photo');
    await expect(photo).toHaveAttribute('src', /^\/media\//);
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

    await overlay.getByRole('button', { name: 'Add to Wishlist' }).click();
    await expect(page).toHaveURL(/\/wishlist$/);
    const card = page.getByTestId('wishlist-item').filter({ hasText: 'Plush Reindeer Rudolph' });
    await expect(card).toBeVisible();
    const img = card.locator('img');
    await expect(img).toHaveAttribute('src', /^\/media\//);
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
    // Served from our own origin, never from the fake database's host. (The check is on the
    // origin, not on the text: the signed address's expiry can hold the digits 8096.)
    const src = new URL((await img.getAttribute('src')) ?? '', page.url());
    expect(src.origin).toBe(new URL(page.url()).origin);
  });

  test('an unknown code says so and offers the text form with the code kept; Decorate keeps the editor flow', async ({ page }) => {
    // The simulation's sample code is one no database knows.
    await cameraNotYetAllowed(page);
    await page.goto('/camera?mode=scan');
    await page.getByRole('button', { name: 'Continue without a camera' }).click();
    await page.getByRole('button', { name: 'Scan barcode' }).click();
    const overlay = page.getByTestId('scanned-product');
    await expect(overlay.getByTestId('product-unknown')).toContainText("We don't know this product (barcode 012345678905)");
    await overlay.getByRole('button', { name: 'Describe It Instead' }).click();
    await expect(page).toHaveURL(/\/text-prompt\?barcode=012345678905$/);
    await expect(page.getByLabel(/Search Keywords/)).toHaveValue('012345678905');

    await page.goto('/camera?mode=scan');
    await page.getByRole('button', { name: 'Continue without a camera' }).click();
    await page.getByRole('button', { name: 'Scan barcode' }).click();
    await page.getByTestId('scanned-product').getByRole('button', { name: 'Decorate with Stickers' }).click();
    await expect(page).toHaveURL(/\/edit-photo\?source=scan$/);
    await expect(page.getByTestId('scan-notice')).toContainText('012345678905');
  });

  test('a pasted shop link fills the add form and the item keeps it as its shopping link', async ({ page }) => {
    await page.goto('/text-prompt');
    await page.getByLabel(/Paste a shop link/).fill(`${SHOP}/railway`);
    await page.getByRole('button', { name: 'Import' }).click();
    await expect(page.getByText('Filled in from 127.0.0.3.')).toBeVisible();
    await expect(page.getByLabel('Gift Name')).toHaveValue('Wooden Railway Set');
    await expect(page.getByLabel('Description')).toHaveValue('A beech-wood railway with a tunnel, a bridge and two engines.');
    await expect(page.getByLabel('Price (estimate)')).toHaveValue('$49.95');
    await expect(page.getByLabel('Category')).toHaveValue('Toys');
    await expect(page.getByLabel(/Item Image URL/)).toHaveValue(/^\/media\//);
    expect(shopHits).toContain('/railway.png'); // fetched by vision, stored by media

    await page.getByRole('button', { name: 'Add to Wishlist' }).click();
    await expect(page).toHaveURL(/\/wishlist$/);
    const card = page.getByTestId('wishlist-item').filter({ hasText: 'Wooden Railway Set' });
    await expect(card.locator('img')).toHaveAttribute('src', /^\/media\//);
    const popup = page.waitForEvent('popup');
    await card.getByRole('button', { name: /Shop/ }).click();
    await expect.poll(async () => (await popup).url()).toBe(`${SHOP}/railway`);
  });

  test('the manifest declares a share target whose route fills the add form with the shared link', async ({ page, request }) => {
    const manifest = await (await request.get('/manifest.webmanifest')).json();
    expect(manifest.share_target).toEqual({
      action: '/text-prompt',
      method: 'GET',
      params: { title: 'title', text: 'text', url: 'url' },
    });
    // Android's share sheet often puts the link in text, after the page's title.
    const text = `Look at this! ${SHOP}/shared-railway`;
    await page.goto(`${manifest.share_target.action}?title=${encodeURIComponent('Railway')}&text=${encodeURIComponent(text)}`);
    await expect(page.getByLabel(/Paste a shop link/)).toHaveValue(`${SHOP}/shared-railway`);
    await expect(page.getByLabel('Gift Name')).toHaveValue('Wooden Railway Set');
    await expect(page.getByLabel('Price (estimate)')).toHaveValue('$49.95');
  });
});
