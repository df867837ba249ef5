import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, expectTargets, signInWithEmail, snap } from './support/app';
import { uniqueEmail } from './support/env';
import { callApi, idToken, newPerson, PASSWORD } from './support/people';

/** The gifts still to buy that lie wholly inside the window. */
async function giftsOnScreen(page: Page): Promise<number> {
  const viewport = page.viewportSize()!;
  const boxes = await page.getByTestId('shared-item').evaluateAll((cards) =>
    cards.map((card) => {
      const r = card.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom };
    }),
  );
  return boxes.filter((b) => b.top >= 0 && b.bottom <= viewport.height).length;
}

/**
 * A grandparent as the product's givers use it: an aunt's link to her list arrives with the
 * family's invitation; Grandma signs up from it, joins the family from the offer, finds her
 * grandson's list from home in one tap, claims a gift, and finds it on her shopping list in one tap.
 */
test('a grandparent opens a shared link, joins the family and gets a gift from home in one tap each', async ({ browser }) => {
  test.setTimeout(180_000);
  const [annP, tomP] = await Promise.all([newPerson('gp-ann', 'Ann'), newPerson('gp-tom', 'Tom')]);
  const grandma = { email: uniqueEmail('gp-grandma'), name: `Grandma ${Math.random().toString(36).slice(2, 6)}`, password: PASSWORD };
  const familyName = `The Millers ${Math.random().toString(36).slice(2, 6)}`;
  const [annToken, tomToken] = await Promise.all([idToken(annP), idToken(tomP)]);

  // Ann makes the family (the answer carries its first invitation link); Tom joins it.
  const family = await callApi<{ id: string; invite: { token: string } }>(annToken, 'POST', '/api/families', { name: familyName });
  await callApi(tomToken, 'POST', `/api/invites/${family.invite.token}/accept`);

  // Ann's default list has one gift; Tom's has eight, none with a photo. Both share them with the family.
  const lists = async (token: string) =>
    (await callApi<{ id: string; isDefault: boolean }[]>(token, 'GET', '/api/lists')).find((l) => l.isDefault)!;
  const [annList, tomList] = await Promise.all([lists(annToken), lists(tomToken)]);
  await callApi(annToken, 'POST', '/api/wishlist', { name: 'Knitting basket', description: 'A willow basket for yarn', category: 'Home', price: '$35' });
  const tomGifts = ['Red kite', 'Lego harbour', 'Torch', 'Marbles', 'Chess set', 'Sledge', 'Binoculars', 'Atlas'];
  for (const name of tomGifts) {
    await callApi(tomToken, 'POST', '/api/wishlist', { name, description: `A ${name.toLowerCase()} for Christmas`, category: 'Toys', price: '$20' });
  }
  await callApi(annToken, 'PATCH', `/api/lists/${annList.id}`, { familyIds: [family.id] });
  await callApi(tomToken, 'PATCH', `/api/lists/${tomList.id}`, { familyIds: [family.id] });
  const annShare = await callApi<{ token: string }>(annToken, 'POST', `/api/lists/${annList.id}/share`);

  // Ann, an admin, makes the family's link and copies her list with it (Family page, "Your lists with this invitation").
  const annContext = await browser.newContext({ serviceWorkers: 'block' });
  await annContext.grantPermissions(['clipboard-read', 'clipboard-write']);
  const ann = await annContext.newPage();
  await ann.goto('/login');
  await signInWithEmail(ann, annP.email, PASSWORD);
  await ann.goto('/family');
  const annCard = ann.getByRole('region', { name: familyName });
  // The family service learns of shared lists from events: wait for Ann's to be projected.
  await expect(async () => {
    await ann.reload();
    await expect(annCard.getByTestId('family-list')).toHaveCount(2, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await annCard.getByRole('button', { name: 'Make an invitation link' }).click();
  await annCard.getByRole('button', { name: 'Copy My Wishlist with the invitation' }).click();
  const sent = await ann.evaluate(() => navigator.clipboard.readText());
  const link = new URL(sent);
  expect(link.pathname).toBe(`/l/${annShare.token}`);
  expect(link.searchParams.get('join')).toMatch(/^[A-Za-z0-9_-]{22,}$/);
  await annContext.close();

  // Grandma opens the link on her phone, signed out: Ann's wishlist, and the offer to join the Millers.
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 375, height: 667 } });
  const page = await context.newPage();
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { level: 1, name: `${annP.name}'s wishlist` })).toBeVisible();
  const offer = page.getByTestId('join-offer');
  await expect(offer).toContainText(`Join ${familyName}`);
  await expect(offer).toContainText(`${annP.name} sent this list with an invitation to ${familyName}`);
  await snap(page, 'grandparent-offer');
  await expectAccessible(page, 'a shared list with the family offer, signed out');
  await expectTargets(page, 'a shared list with the family offer, signed out');

  // She signs up from the offer and comes straight back to the list, then joins.
  await offer.getByRole('link', { name: 'Sign in or sign up to join' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  const signUp = page.getByRole('form', { name: 'Sign up' });
  await signUp.getByLabel(/Display Name/).fill(grandma.name);
  await signUp.getByLabel('Email').fill(grandma.email);
  await signUp.getByLabel('Password').fill(PASSWORD);
  await signUp.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(new RegExp(`/l/${annShare.token}\\?join=`));
  await offer.getByRole('button', { name: `Join ${familyName}` }).click();
  await expect(offer).toContainText(`Welcome to ${familyName}`);
  await expect(offer.getByRole('link', { name: "See the family's lists" })).toBeVisible();

  // From home, one tap to the family's lists: Tom's list with how many gifts are still to buy.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('link', { name: "Family's lists" })).toBeVisible();
  await snap(page, 'grandparent-home');
  await expectTargets(page, 'home, signed in');
  await page.getByRole('link', { name: "Family's lists" }).click();
  await expect(page).toHaveURL(/\/family$/);
  const tomRow = page.getByRole('region', { name: familyName }).getByTestId('family-list').filter({ hasText: `${tomP.name}'s wishlist` });
  await expect(tomRow).toContainText('8 gifts still to buy');
  await snap(page, 'grandparent-family');
  await expectAccessible(page, 'the family lists with gifts still to buy');
  await expectTargets(page, 'the family lists with gifts still to buy');

  // She opens Tom's list and claims the kite.
  await tomRow.click();
  await expect(page.getByRole('heading', { level: 1, name: `${tomP.name}'s wishlist` })).toBeVisible();
  const kite = page.getByTestId('shared-item').filter({ hasText: 'Red kite' });
  await kite.getByRole('button', { name: "I'll get this: Red kite" }).click();
  await expect(kite).toContainText('You are getting 1');
  // Taken, it moves below what is still to buy.
  await expect(page.getByTestId('shared-item').last()).toContainText('Red kite');

  // The dense view shows at least six gifts on a 375 × 667 screen.
  await page.getByRole('button', { name: 'Compact view' }).click();
  await expect(page.getByRole('button', { name: 'Compact view' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('dense-toggle').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, document.querySelector('[data-testid="dense-toggle"]')!.getBoundingClientRect().top + window.scrollY - 70));
  expect(await giftsOnScreen(page)).toBeGreaterThanOrEqual(6);
  await snap(page, 'grandparent-dense');
  await expectAccessible(page, 'a shared list in the dense view');
  await expectTargets(page, 'a shared list in the dense view');

  // Back home, one tap to her shopping list: the kite, under Tom's wishlist.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await page.getByRole('link', { name: 'My shopping list' }).click();
  await expect(page).toHaveURL(/\/claims$/);
  const row = page.getByTestId('claim-row').filter({ hasText: 'Red kite' });
  await expect(row).toBeVisible();
  await expect(row.getByRole('link', { name: `${tomP.name}'s wishlist` })).toBeVisible();
  await snap(page, 'grandparent-claims');
  await expectAccessible(page, 'the shopping list');
  await expectTargets(page, 'the shopping list');

  // The family page counts the claim: 7 left on Tom's list.
  await page.goto('/family');
  await expect(tomRow).toContainText('7 gifts still to buy');
  // Her own view never carries a figure for a list she is the recipient of: she has none shared; Ann's shows a count too.
  await context.close();
});
