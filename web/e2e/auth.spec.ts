import { expect, test } from '@playwright/test';
import { expectAccessible, expectToast, logOut, signInWithEmail, snap } from './support/app';
import { createEmulatorUser, oobCodes } from './support/emulator';
import { uniqueEmail } from './support/env';
import { googleContext } from './support/google';

const PASSWORD = 'candy-cane-7';

test.describe('sign-in', () => {
  test('sign up with a display name, see it in the avatar menu, log out', async ({ page }) => {
    // Four screens, each checked by axe in three themes and languages: about 40 s on a quiet
    // machine, 96 s seen on a busy one; the default 90 s left no room.
    test.setTimeout(180_000);
    const email = uniqueEmail('e2e-signup');
    await page.goto('/firebase-login');
    await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
    await snap(page, 'login');
    await expectAccessible(page, 'login');

    await page.getByRole('tab', { name: 'Sign Up' }).click();
    const form = page.getByRole('form', { name: 'Sign up' });
    await expect(form.getByText('Password must be at least 6 characters')).toBeVisible();
    await snap(page, 'sign-up');
    await expectAccessible(page, 'sign up');

    await form.getByLabel(/Display Name/).fill('Ernie Elf');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Create Account' }).click();

    await expect(page).toHaveURL(/\/$/);
    const avatar = page.getByRole('button', { name: 'Account menu for Ernie Elf' });
    await expect(avatar).toHaveText('E');
    await avatar.click();
    const menu = page.getByRole('menu');
    await expect(menu).toContainText('Ernie Elf');
    await expect(menu).toContainText(email);
    await snap(page, 'avatar-menu');
    await expectAccessible(page, 'avatar menu');
    await page.keyboard.press('Escape');

    await logOut(page);
    await expect(page.getByRole('heading', { name: 'Log in to Save Your Wishlist!' })).toBeVisible();
  });

  test('asks for both fields, rejects a wrong password, signs in with email', async ({ page }) => {
    const email = uniqueEmail('e2e-signin');
    await createEmulatorUser(email, PASSWORD);
    await page.goto('/login');
    const form = page.getByRole('form', { name: 'Sign in' });

    await form.getByLabel('Email').fill(email);
    await form.getByRole('button', { name: 'Sign In with Email' }).click();
    await expectToast(page, 'Missing fields', 'Please provide both email and password');

    await form.getByLabel('Password').fill('not-the-password');
    await form.getByRole('button', { name: 'Sign In with Email' }).click();
    await expectToast(page, 'Authentication Error');
    await expect(page).toHaveURL(/\/login$/);

    await signInWithEmail(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Welcome Back to Your Wishlist!' })).toBeVisible();
    await snap(page, 'home-signed-in');
    await expectAccessible(page, 'home (signed in)');
  });

  test('sends a password reset email and returns to sign in', async ({ page }) => {
    const email = uniqueEmail('e2e-reset');
    await createEmulatorUser(email, PASSWORD);
    await page.goto('/firebase-login');
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    const form = page.getByRole('form', { name: 'Reset password' });
    await expect(form.getByLabel('Password')).toHaveCount(0);
    await snap(page, 'reset-password');
    await expectAccessible(page, 'reset password');

    await form.getByLabel('Email').fill(email);
    await form.getByRole('button', { name: 'Send Reset Instructions' }).click();
    await expectToast(page, 'Password Reset Email Sent', 'Check your email inbox for password reset instructions');
    await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
    const codes = await oobCodes();
    expect(codes.some((c) => c.email === email && c.requestType === 'PASSWORD_RESET')).toBe(true);
  });

  test('signs in with Google through the Auth emulator popup', async ({ browser, baseURL }) => {
    const context = await googleContext(browser, baseURL!);
    const page = await context.newPage();
    try {
      await page.goto('/firebase-login');
      const popupPromise = page.waitForEvent('popup');
      await page.getByRole('button', { name: 'Sign In with Google' }).click();
      const popup = await popupPromise;
      await popup.waitForLoadState('domcontentloaded');
      // The emulator's own fake Google account page.
      await popup.locator('.js-new-account').click();
      const email = uniqueEmail('e2e-google');
      await popup.locator('#email-input').fill(email);
      await popup.locator('#display-name-input').fill('Gracie Google');
      await popup.locator('#sign-in').click();

      await expect(page.getByRole('button', { name: 'Account menu for Gracie Google' })).toBeVisible();
      await expect(page).toHaveURL(/\/$/);
      await page.getByRole('button', { name: 'Account menu for Gracie Google' }).click();
      await expect(page.getByRole('menu')).toContainText(email);
    } finally {
      await context.close();
    }
  });

  test('a protected page asks to log in and returns there afterwards', async ({ page }) => {
    const email = uniqueEmail('e2e-protected');
    await createEmulatorUser(email, PASSWORD);
    await page.goto('/text-prompt');
    const dialog = page.getByRole('dialog', { name: 'Authentication Required' });
    await expect(dialog).toContainText('You need to log in to access this page.');
    await snap(page, 'authentication-required');
    await expectAccessible(page, 'authentication required dialog');

    await dialog.getByRole('button', { name: 'Back to Home' }).click();
    await expect(page).toHaveURL(/\/$/);

    await page.goto('/text-prompt');
    await page.getByRole('button', { name: 'Log In Now' }).click();
    await expect(page).toHaveURL(/\/firebase-login$/);
    expect(await page.evaluate(() => sessionStorage.getItem('redirectAfterLogin'))).toBe('/text-prompt');
    await signInWithEmail(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/text-prompt$/);
    await expect(page.getByRole('heading', { name: 'Add to Wishlist' })).toBeVisible();
  });
});
