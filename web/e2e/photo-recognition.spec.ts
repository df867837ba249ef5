import { expectAccessible, expectToast, snap } from './support/app';
import { cameraTest as test, expect, productJpeg } from './support/photo';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('the image recognition page: upload, analyze, generate the entry, copy it', async ({ page, browser }) => {
  await page.goto('/image-recognition');
  await expect(page.getByRole('heading', { level: 1, name: 'AI Image Recognition' })).toBeVisible();

  await page.getByRole('button', { name: 'Analyze Image' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please select an image first');
  await page.getByRole('button', { name: 'Generate Wishlist Item' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please analyze an image first');
  await page.getByLabel('Upload an Image').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByRole('alert')).toHaveText('Please select an image file');

  await page.getByLabel('Upload an Image').setInputFiles({ name: 'car.jpg', mimeType: 'image/jpeg', buffer: await productJpeg(browser) });
  await expect(page.getByAltText('The image to analyze')).toBeVisible();
  await page.getByLabel(/Custom prompt/).fill('Describe the toy in the box');
  const analysis = page.waitForResponse((r) => r.url().endsWith('/api/vision/analyze'));
  await page.getByRole('button', { name: 'Analyze Image' }).click();
  const analyzed = (await (await analysis).json()) as { name: string };
  expect((await analysis).request().postDataJSON()).toMatchObject({ prompt: 'Describe the toy in the box' });
  await expect(page.getByTestId('analysis-text')).toContainText(`Name: ${analyzed.name}`);

  const generation = page.waitForResponse((r) => r.url().endsWith('/api/vision/generate'));
  await page.getByRole('button', { name: 'Generate Wishlist Item' }).click();
  const generated = (await (await generation).json()) as Record<string, string>;
  expect((await generation).request().postDataJSON()).toMatchObject({ mode: 'item' });
  const entry = page.getByLabel('Wishlist entry (JSON)');
  await expect(entry).toHaveJSProperty('readOnly', true);
  const json = JSON.parse(await entry.inputValue()) as Record<string, string>;
  expect(json).toEqual({
    name: generated.name,
    description: generated.description,
    price: generated.price,
    estimatedPrice: generated.estimatedPrice,
    category: generated.category,
  });
  expect(['toy', 'electronics', 'clothing', 'accessory', 'other']).toContain(json.category);

  await page.getByRole('button', { name: 'Copy to Clipboard' }).click();
  await expectToast(page, 'Copied to Clipboard');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await entry.inputValue());
  await page.getByRole('button', { name: 'Close notification' }).click();
  await snap(page, 'image-recognition');
  await expectAccessible(page, 'image recognition');
});
