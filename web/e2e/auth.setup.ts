import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect, test as setup } from '@playwright/test';
import { signInWithEmail } from './support/app';
import { createEmulatorUser } from './support/emulator';
import { BASE_URL, uniqueEmail, USER_FILE, USER_STATE } from './support/env';

setup('the stack answers', async ({ request }) => {
  const health = await request.get('/healthz');
  expect(health.ok(), `gateway at ${BASE_URL} is not healthy; is \`make dev\` running?`).toBeTruthy();
  const config = await request.get('/api/config');
  expect(config.ok()).toBeTruthy();
  const body = await config.json();
  expect(body.firebase.projectId).toBeTruthy();
  expect(body.authEmulatorUrl, 'the e2e tests sign in against the Auth emulator').toBeTruthy();
});

setup('sign in once and keep the browser state', async ({ page }) => {
  const email = uniqueEmail('e2e-wishlist');
  const password = 'snowflake-42';
  await createEmulatorUser(email, password, 'Wishlist Tester');
  await page.goto('/firebase-login');
  await signInWithEmail(page, email, password);
  mkdirSync(dirname(USER_STATE), { recursive: true });
  // Firebase keeps the session in IndexedDB.
  await page.context().storageState({ path: USER_STATE, indexedDB: true });
  writeFileSync(USER_FILE, JSON.stringify({ email, password }));
});
