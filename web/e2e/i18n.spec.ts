import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, snap } from './support/app';
import { callApi, defaultList, idToken, newPerson, type Person } from './support/people';

// Four languages: the browser's language decides until the avatar menu's switch does. Every
// screen reached here in German is checked with axe and photographed as de-*.png; the family
// lists' screens also in the dark theme (dark-*.png).

/** The login screen's words in each language the tests sign in with. */
const LOGIN = {
  en: { form: 'Sign in', email: 'Email', password: 'Password', submit: 'Sign In with Email', avatar: /^Account menu for / },
  de: { form: 'Anmelden', email: 'E-Mail', password: 'Passwort', submit: 'Mit E-Mail anmelden', avatar: /^Kontomenü von / },
};

/** Signs in through the login screen in the page's language. */
async function signIn(page: Page, person: Pick<Person, 'email' | 'password'>, lng: keyof typeof LOGIN): Promise<void> {
  const words = LOGIN[lng];
  await page.goto('/login');
  const form = page.getByRole('form', { name: words.form });
  await form.getByLabel(words.email).fill(person.email);
  await form.getByLabel(words.password).fill(person.password);
  await form.getByRole('button', { name: words.submit }).click();
  await expect(page.getByRole('button', { name: words.avatar })).toBeVisible();
}

test.describe('German from the browser', () => {
  test.use({ locale: 'de-DE' });

  for (const [path, name, ready] of [
    ['/', 'home', 'Schon gewusst?'],
    ['/no/such/page', 'not-found', '404 – Seite nicht gefunden'],
    ['/firebase-login', 'login', 'Santas Wunschzettel'],
    ['/firebase-debug', 'firebase-debug', 'Hilfe bei der Anmeldung'],
    ['/image-recognition', 'image-recognition', 'KI-Bilderkennung'],
    ['/share/toy-racing-car', 'shared-gift', 'Toy Racing Car'],
  ] as const) {
    test(`${name} is German and accessible`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: ready })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      await snap(page, `de-${name}`);
      await expectAccessible(page, `${name} (German)`);
    });
  }

  test('the home countdown and the camera are German and accessible', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByText(/Tage? bis Weihnachten/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Fotografiere dein Geschenk' })).toBeVisible();
    await page.goto('/camera');
    await expect(page.getByTestId('viewfinder')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Foto machen' })).toBeVisible();
    await snap(page, 'de-camera');
    await expectAccessible(page, 'camera (German)');
  });

  test('sign-up and the sign-in guard are German and accessible', async ({ page }) => {
    await page.goto('/firebase-login');
    await page.getByRole('tab', { name: 'Registrieren' }).click();
    await expect(page.getByRole('button', { name: 'Konto erstellen' })).toBeVisible();
    await snap(page, 'de-sign-up');
    await expectAccessible(page, 'sign up (German)');
    await page.goto('/wishlist');
    await expect(page.getByRole('dialog', { name: 'Anmeldung erforderlich' })).toBeVisible();
    await snap(page, 'de-authentication-required');
    await expectAccessible(page, 'authentication required (German)');
  });
});

test.describe('the language switch in the avatar menu', () => {
  test.use({ locale: 'en-US' });

  test('German is chosen, shows German text, prices and dates, and is remembered after a reload', async ({ page }) => {
    // A user of its own: the shared signed-in user's wishlist is other specs' (wishlist.spec starts empty).
    const person = await newPerson('i18n-switch', 'Holly');
    const token = await idToken(person);
    const list = await defaultList(token);
    await callApi(token, 'POST', '/api/wishlist', {
      name: 'Wooden sledge',
      description: 'A wooden sledge with red runners',
      category: 'Sports',
      price: '$1,299.50',
      listId: list.id,
    });
    await callApi(token, 'PATCH', `/api/lists/${list.id}`, { revealAt: '2026-12-24T00:00:00Z' });

    await signIn(page, person, 'en');
    await page.goto('/wishlist');
    await expect(page.getByRole('heading', { level: 1, name: 'My Wishlist' })).toBeVisible();
    const card = page.getByTestId('wishlist-item').filter({ hasText: 'Wooden sledge' }).first();
    await expect(card).toContainText('$1,299.50');
    await page.getByRole('button', { name: /^Account menu for / }).click();
    await expect(page.getByRole('menuitemradio', { name: 'English' })).toHaveAttribute('aria-checked', 'true');
    await page.getByRole('menuitemradio', { name: 'Deutsch' }).click();

    await expect(page.getByRole('menuitem', { name: 'Abmelden' })).toBeVisible();
    await expect(page.getByRole('menuitemradio', { name: 'Deutsch' })).toHaveAttribute('aria-checked', 'true');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { level: 1, name: 'Mein Wunschzettel' })).toBeVisible();
    await expect(card).toContainText(/1\.299,50\s\$/);
    await expect(card).toContainText('Sport');
    await snap(page, 'de-avatar-menu');
    await expectAccessible(page, 'avatar menu (German)');
    await page.keyboard.press('Escape');

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Mein Wunschzettel' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(card).toContainText(/1\.299,50\s\$/);
    await snap(page, 'de-wishlist');
    await expectAccessible(page, 'wishlist (German)');

    await page.getByRole('button', { name: 'Teilen', exact: true }).click();
    const settings = page.getByRole('dialog', { name: /: Teilen$/ });
    await expect(settings.getByTestId('reveal-on')).toHaveText('Am 24. Dezember 2026 wird enthüllt, wer was schenkt.');
    await snap(page, 'de-list-settings');
    await expectAccessible(page, 'list settings (German)');
    await settings.getByRole('button', { name: 'Fertig' }).click();

    await page.goto('/text-prompt');
    await page.getByRole('button', { name: 'Zum Wunschzettel hinzufügen' }).click();
    await expect(page.getByText('Der Name muss mindestens 3 Zeichen lang sein.')).toBeVisible();
    await snap(page, 'de-add-item-errors');
    await expectAccessible(page, 'add item form with errors (German)');
  });
});

for (const look of [
  { prefix: 'de', locale: 'de-DE', colorScheme: 'light' },
  { prefix: 'dark', locale: 'en-US', colorScheme: 'dark' },
] as const) {
  test.describe(`family lists (${look.prefix})`, () => {
    test.use({ locale: look.locale, colorScheme: look.colorScheme });

    test(`the shared list, the shopping list and the share dialog are ${look.prefix} and accessible`, async ({ browser }) => {
      test.setTimeout(120_000);
      const german = look.prefix === 'de';
      const [ownerP, memberP] = await Promise.all([newPerson('i18n-owner', 'Lena'), newPerson('i18n-aunt', 'Aunt Eva')]);
      const ownerToken = await idToken(ownerP);
      const list = await defaultList(ownerToken);
      const bike = await callApi<{ id: string }>(ownerToken, 'POST', '/api/wishlist', {
        name: 'Red bicycle',
        description: 'A red bicycle with a bell and a basket',
        category: 'Toys',
        price: '$120',
        listId: list.id,
        priority: 3,
      });
      await callApi(ownerToken, 'POST', '/api/wishlist', {
        name: 'Wool socks',
        description: 'Warm wool socks for winter walks',
        category: 'Clothing',
        price: '€15',
        listId: list.id,
        quantity: 2,
      });
      const { token } = await callApi<{ token: string }>(ownerToken, 'POST', `/api/lists/${list.id}/share`);
      await callApi(await idToken(memberP), 'PUT', `/api/shared/${token}/items/${bike.id}/claim`, { quantity: 1, purchased: false });

      const options = { locale: look.locale, colorScheme: look.colorScheme, serviceWorkers: 'block' as const };
      const member = await browser.newContext(options);
      const memberPage = await member.newPage();
      await signIn(memberPage, memberP, german ? 'de' : 'en');

      await memberPage.goto(`/l/${token}`);
      const socks = memberPage.getByTestId('shared-item').filter({ hasText: 'Wool socks' });
      await expect(socks).toContainText(german ? /15\s€/ : '€15');
      await expect(memberPage.getByTestId('shared-item').filter({ hasText: 'Red bicycle' })).toContainText(
        german ? 'Du besorgst 1' : 'You are getting 1',
      );
      // Lena's default list is "My Wishlist" only to Lena: to her aunt it is Lena's wishlist, in her language.
      const whose = german ? `Wunschzettel von ${ownerP.name}` : `${ownerP.name}'s wishlist`;
      await expect(memberPage.getByRole('heading', { level: 1, name: whose })).toBeVisible();
      await snap(memberPage, `${look.prefix}-shared-list`);
      await expectAccessible(memberPage, `shared list (${look.prefix})`);

      await memberPage.goto('/claims');
      await expect(memberPage.getByRole('heading', { level: 1, name: german ? 'Meine Geschenke-Einkaufsliste' : 'My gift shopping list' })).toBeVisible();
      await expect(memberPage.getByTestId('claim-row')).toContainText(german ? /120\s\$/ : '$120');
      await expect(memberPage.getByTestId('claim-row').getByRole('link', { name: whose })).toBeVisible();
      await snap(memberPage, `${look.prefix}-claims`);
      await expectAccessible(memberPage, `shopping list (${look.prefix})`);

      const owner = await browser.newContext(options);
      const ownerPage = await owner.newPage();
      await signIn(ownerPage, ownerP, german ? 'de' : 'en');
      await ownerPage.goto('/wishlist');
      await ownerPage.getByRole('button', { name: german ? 'Teilen' : 'Share', exact: true }).click();
      const dialog = ownerPage.getByRole('dialog');
      await expect(dialog.getByLabel(german ? /Alle mit diesem Link/ : /Anyone with this link/)).toHaveValue(new RegExp(`/l/${token}$`));
      await snap(ownerPage, `${look.prefix}-share-dialog`);
      await expectAccessible(ownerPage, `share dialog (${look.prefix})`);

      await Promise.all([member.close(), owner.close()]);
    });
  });
}
