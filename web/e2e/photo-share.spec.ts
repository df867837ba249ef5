import { expectAccessible, expectToast, snap } from './support/app';
import { cameraTest as test, expect, productJpeg } from './support/photo';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('share options: real share links, a shareable link that copies and opens', async ({ page, browser, baseURL }) => {
  const photo = `data:image/jpeg;base64,${(await productJpeg(browser)).toString('base64')}`;
  // The screen starts from what the editor stored: the edited photo and the AI's name.
  await page.addInitScript((image) => {
    if (!localStorage.getItem('editedImage')) {
      localStorage.setItem('editedImage', image);
      localStorage.setItem('geminiItemName', 'Toy Racing Car');
      localStorage.setItem('geminiItemDescription', 'A red racing car with a remote control.');
      localStorage.setItem('geminiItemPrice', '$29.99');
    }
  }, photo);
  await page.goto('/gift-options');
  await page.getByRole('link', { name: 'Share Gift Idea' }).click();
  await expect(page).toHaveURL(/\/share-options$/);

  await expect(page.getByTestId('share-name')).toHaveText('Toy Racing Car');
  await expect(page.getByText('From my wishlist')).toBeVisible();
  await expect(page.getByLabel('Message')).toHaveValue('I would really love this for Christmas');
  const link = `${new URL(baseURL!).origin}/share/toy-racing-car`;
  await expect(page.getByLabel('Shareable link')).toHaveValue(link);

  const text = 'I would really love this for Christmas: Toy Racing Car';
  const e = encodeURIComponent;
  await expect(page.getByTestId('share-whatsapp')).toHaveAttribute('href', `https://wa.me/?text=${e(`${text} ${link}`)}`);
  await expect(page.getByTestId('share-whatsapp')).toHaveAttribute('target', '_blank');
  await expect(page.getByTestId('share-facebook')).toHaveAttribute('href', `https://www.facebook.com/sharer/sharer.php?u=${e(link)}`);
  await expect(page.getByTestId('share-twitter')).toHaveAttribute('href', `https://twitter.com/intent/tweet?text=${e(text)}&url=${e(link)}`);
  await expect(page.getByTestId('share-sms')).toHaveAttribute('href', `sms:?&body=${e(`${text} ${link}`)}`);

  await page.getByRole('button', { name: 'Copy Link' }).click();
  await expectToast(page, 'Link Copied', 'Shareable link copied to clipboard');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await page.getByRole('button', { name: 'Close notification' }).click();
  await snap(page, 'share-options');
  await expectAccessible(page, 'share options');

  // What a friend sees.
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Toy Racing Car' })).toBeVisible();
  await expect(page.getByText('Someone would really love this for Christmas')).toBeVisible();
  await snap(page, 'shared-gift');
  await expectAccessible(page, 'shared gift');
});
