import { expect, test } from '@playwright/test';
import { expectAccessible, signInWithEmail, snap } from './support/app';
import { callApi, idToken, newPerson, PASSWORD } from './support/people';
import { uniqueEmail } from './support/env';

/** The stack's Mailpit (deploy/local/stack.sh). */
const MAILPIT_URL = process.env.E2E_MAILPIT_URL ?? 'http://127.0.0.1:8025';

test('the notification settings: a switch is flipped, saved, and still flipped after a reload', async ({ page }) => {
  const person = await newPerson('e2e-notify', 'Nora');
  await page.goto('/login');
  await signInWithEmail(page, person.email, PASSWORD);

  await page.getByRole('button', { name: /^Account menu for / }).click();
  await page.getByRole('menuitem', { name: 'Notifications' }).click();
  await expect(page).toHaveURL(/\/settings\/notifications$/);
  await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();

  const email = page.getByRole('switch', { name: 'Email: A list you follow changed' });
  const push = page.getByRole('switch', { name: 'Push: Secret Santa drawn' });
  await expect(email).toBeChecked();
  await expect(push).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Email: Someone joined your family' })).not.toBeChecked();
  // Issue #39's two kinds: thanks are emailed by default, a complete group gift only pushed.
  await expect(page.getByRole('switch', { name: 'Email: Thanks for a gift you gave' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Push: A group gift is complete' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Email: A group gift is complete' })).not.toBeChecked();
  await snap(page, 'notification-settings');
  await expectAccessible(page, 'notification settings');

  const saved = page.waitForResponse((r) => r.url().endsWith('/api/notifications/preferences') && r.request().method() === 'PUT');
  await email.click();
  expect((await saved).status()).toBe(200);
  await expect(email).not.toBeChecked();
  await expect(email).toBeEnabled();
  const pushSaved = page.waitForResponse((r) => r.url().endsWith('/api/notifications/preferences') && r.request().method() === 'PUT');
  await push.click();
  expect((await pushSaved).status()).toBe(200);
  await expect(push).not.toBeChecked();

  await page.reload();
  await expect(page.getByRole('switch', { name: 'Email: A list you follow changed' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Push: Secret Santa drawn' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Push: A list you follow changed' })).toBeChecked();

  // The server has it too, and the language the emails are written in is the app's.
  const token = await idToken(person);
  const settings = await callApi<{ language: string; preferences: { kind: string; channel: string; enabled: boolean }[] }>(
    token,
    'GET',
    '/api/notifications/preferences',
  );
  expect(settings.language).toBe('en');
  expect(settings.preferences.find((p) => p.kind === 'list.changed' && p.channel === 'email')?.enabled).toBe(false);
});

test('an email’s unsubscribe link opens a page that asks, then stops those emails without signing in', async ({ page }) => {
  const admin = await newPerson('e2e-unsub-admin', 'Ada');
  const token = await idToken(admin);
  const family = await callApi<{ id: string }>(token, 'POST', '/api/families', { name: 'The Unsubscribers' });
  const invited = uniqueEmail('e2e-unsub-invited');
  await callApi(token, 'POST', `/api/families/${family.id}/invites`, { email: invited });

  interface Listed {
    ID: string;
    To: { Address: string }[];
  }
  let id = '';
  await expect
    .poll(
      async () => {
        const list = (await (await fetch(`${MAILPIT_URL}/api/v1/messages?limit=500`)).json()) as { messages: Listed[] };
        id = list.messages.find((m) => m.To.some((to) => to.Address.toLowerCase() === invited.toLowerCase()))?.ID ?? '';
        return id;
      },
      { timeout: 20_000, message: `the invitation to ${invited}` },
    )
    .not.toBe('');
  const headers = (await (await fetch(`${MAILPIT_URL}/api/v1/message/${id}/headers`)).json()) as Record<string, string[]>;
  expect(headers['List-Unsubscribe-Post']).toEqual(['List-Unsubscribe=One-Click']);
  const address = /<[^>]+(\/api\/unsubscribe\/[A-Za-z0-9_-]+)>/.exec(headers['List-Unsubscribe']?.[0] ?? '');
  expect(address, `List-Unsubscribe: ${headers['List-Unsubscribe']}`).not.toBeNull();

  // A person clicking the header's address in their mail program: the API sends the browser to the page.
  await page.goto(address![1]);
  await expect(page).toHaveURL(/\/unsubscribe\/[A-Za-z0-9_-]+$/);
  await expect(page.getByText('Stop all invitations to this email address? Nobody is told.')).toBeVisible();
  await expectAccessible(page, 'unsubscribe');
  await snap(page, 'unsubscribe');
  await page.getByRole('button', { name: 'Stop these emails' }).click();
  await expect(page.getByRole('status')).toHaveText('Done: this address gets no more invitations.');

  await page.goto('/unsubscribe/not-a-real-token-at-all-0000000000');
  await expect(page.getByRole('alert')).toHaveText('This link is not known. It may have been copied incompletely.');
});
