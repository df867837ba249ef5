import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectAccessible, signInWithEmail, snap } from './support/app';
import { createEmulatorUser, stackAuth } from './support/emulator';
import { uniqueEmail } from './support/env';

const PASSWORD = 'delete-me-42';

test('the Account screen downloads my data, deletes the account and signs out', async ({ page }) => {
  const email = uniqueEmail('e2e-account');
  await createEmulatorUser(email, PASSWORD, 'Dora Delete');
  await page.goto('/login');
  await signInWithEmail(page, email, PASSWORD);

  await page.getByRole('button', { name: /^Account menu for / }).click();
  await page.getByRole('menuitem', { name: 'My account and data' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'What we keep' })).toBeVisible();
  await expect(page.getByText(`Signed in as Dora Delete (${email})`)).toBeVisible();
  await snap(page, 'account');
  await expectAccessible(page, 'account');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download my data' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('santa-wishlist-data.zip');
  const zip = readFileSync((await download.path())!);
  expect(zip.subarray(0, 2).toString()).toBe('PK');
  expect(zip.includes(Buffer.from('account.json'))).toBe(true);

  const remove = page.getByRole('button', { name: 'Delete my account' });
  await expect(remove).toBeDisabled();
  await page.getByLabel('Type your email to confirm').fill('someone@else.example');
  await expect(remove).toBeDisabled();
  await page.getByLabel('Type your email to confirm').fill(email.toUpperCase());
  await remove.click();

  await expect(page.getByRole('heading', { name: 'Your account was deleted' })).toBeVisible();
  await expect(page.getByText('Your wish lists and the items on them, with their photos')).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Log In' })).toBeVisible();
  await snap(page, 'account-deleted');
  await expectAccessible(page, 'account deleted');

  await page.goto('/privacy');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await snap(page, 'privacy');
  await expectAccessible(page, 'privacy');

  // The Firebase user goes too: signing in again fails once every service has erased.
  const { emulator } = await stackAuth();
  await expect
    .poll(
      async () => {
        const res = await fetch(`${emulator}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=e2e`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email, password: PASSWORD, returnSecureToken: true }),
        });
        return res.status;
      },
      { timeout: 20_000 },
    )
    .toBe(400);
});
