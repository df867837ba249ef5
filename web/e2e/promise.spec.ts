import { expect, test, type Page } from '@playwright/test';
import { contextFor, expectAccessible, signInWithEmail, snap } from './support/app';
import { callApi, idToken, newPerson, PASSWORD, type Person } from './support/people';

/**
 * The promise (docs/family.md), seen in the browser: an anonymous visitor of a shared list learns
 * nothing of its claims (and is invited to sign in, which brings them back with the claims shown),
 * and the owner sees a claim only once its own reveal date has passed, as the list's gift history
 * by year, while the next season's claims stay secret.
 */

async function signIn(page: Page, person: Person): Promise<void> {
  await page.goto('/login');
  await signInWithEmail(page, person.email, PASSWORD);
}

interface ListInfo {
  id: string;
  revealAt: string;
}

/** A new list of the owner's with the named gifts, shared by link: its id and token, and the items' ids by name. */
async function sharedListWith(ownerToken: string, name: string, gifts: string[]) {
  const list = await callApi<ListInfo>(ownerToken, 'POST', '/api/lists', { name });
  const items: Record<string, string> = {};
  for (const gift of gifts) {
    const made = await callApi<{ id: string }>(ownerToken, 'POST', '/api/wishlist', {
      name: gift,
      description: `${gift} for the garden and the winter walks`,
      category: 'Toys',
      listId: list.id,
    });
    items[gift] = made.id;
  }
  const { token } = await callApi<{ token: string }>(ownerToken, 'POST', `/api/lists/${list.id}/share`);
  return { list, token, items };
}

function claim(token: string, shareToken: string, itemId: string) {
  return callApi(token, 'PUT', `/api/shared/${shareToken}/items/${itemId}/claim`, { quantity: 1, purchased: false });
}

test('an anonymous visitor sees no claims, only an invitation to sign in that brings them back to claim', async ({ browser }) => {
  test.setTimeout(120_000);
  const [ownerP, auntP, uncleP] = await Promise.all([
    newPerson('promise-owner', 'Tom'),
    newPerson('promise-aunt', 'Aunt Ann'),
    newPerson('promise-uncle', 'Uncle Bob'),
  ]);
  const ownerToken = await idToken(ownerP);
  const { token, items } = await sharedListWith(ownerToken, 'Garden', ['Walkie-talkies', 'Kite']);
  // The aunt has taken the walkie-talkies.
  await claim(await idToken(auntP), token, items['Walkie-talkies']);

  const visitor = await contextFor(browser);
  await visitor.page.goto(`/l/${token}`);
  await expect(visitor.page.getByRole('heading', { level: 1, name: 'Garden' })).toBeVisible();
  const cards = visitor.page.getByTestId('shared-item');
  await expect(cards).toHaveCount(2);
  const main = visitor.page.locator('main');
  // The item cards themselves (not the sign-in invitation, which speaks of "what is taken").
  for (const card of await cards.all()) await expect(card).not.toContainText(/Taken|taken|You are getting/);
  await expect(visitor.page.getByRole('button', { name: /I'll get this|Release/ })).toHaveCount(0);
  await expect(main).not.toContainText(auntP.name);
  // Nothing in what the anonymous browser received tells a claimed item from an unclaimed one.
  const anonymous = visitor.bodies.filter((b) => b.includes(`/api/shared/${token}`)).join('\n');
  expect(anonymous).toContain('"viewer":"anonymous"');
  expect(anonymous).not.toMatch(/"(claimed|mine|claims)"/);
  expect(anonymous).not.toContain(auntP.name);

  // The invitation signs the visitor in and brings them back to the same list.
  const invite = visitor.page.getByRole('complementary', { name: 'Giving one of these?' });
  await expect(invite).toContainText(`${ownerP.name} never sees who claimed what before the surprise.`);
  await expectAccessible(visitor.page, 'anonymous shared list');
  await invite.getByRole('link', { name: 'Sign in to see what is taken' }).click();
  await expect(visitor.page).toHaveURL(/\/login$/);
  await signInWithEmail(visitor.page, uncleP.email, PASSWORD);
  await expect(visitor.page).toHaveURL(new RegExp(`/l/${token}$`));
  await expect(visitor.page.getByTestId('sign-in-invite')).toHaveCount(0);
  const walkies = cards.filter({ hasText: 'Walkie-talkies' });
  const kite = cards.filter({ hasText: 'Kite' });
  await expect(walkies).toContainText('Taken');
  await expect(walkies.getByRole('button', { name: /I'll get this/ })).toHaveCount(0);
  await kite.getByRole('button', { name: "I'll get this: Kite" }).click();
  await expect(kite).toContainText('You are getting 1');

  await visitor.context.close();
});

test('the owner sees a claim once its own reveal date has passed, in the gift history by year, and the next season stays secret', async ({ browser }) => {
  test.setTimeout(150_000);
  const [ownerP, auntP, uncleP] = await Promise.all([
    newPerson('history-owner', 'Tom'),
    newPerson('history-aunt', 'Aunt Ann'),
    newPerson('history-uncle', 'Uncle Bob'),
  ]);
  const ownerToken = await idToken(ownerP);
  const [auntToken, uncleToken] = await Promise.all([idToken(auntP), idToken(uncleP)]);
  const { list, token, items } = await sharedListWith(ownerToken, 'Birthday', ['Red bicycle', 'Wool socks']);

  const owner = await contextFor(browser);
  await signIn(owner.page, ownerP);

  // The reveal date a few seconds ahead (a date in the past is refused), then the aunt's claim,
  // which takes that date as its own.
  const revealAt = new Date(Math.ceil((Date.now() + 20_000) / 1000) * 1000);
  await callApi(ownerToken, 'PATCH', `/api/lists/${list.id}`, { revealAt: revealAt.toISOString() });
  await claim(auntToken, token, items['Red bicycle']);

  // Before the date: the owner's page shows the gift and nothing of the claim.
  await owner.page.goto(`/wishlist?list=${list.id}`);
  await expect(owner.page.getByTestId('wishlist-item').filter({ hasText: 'Red bicycle' })).toBeVisible();
  await expect(owner.page.getByTestId('gift-history')).toHaveCount(0);
  await expect(owner.page.locator('main')).not.toContainText(auntP.name);

  // After it: the gift appears under the year of its reveal date. Reloads until the server's
  // clock has passed the date, so no fixed wait decides the outcome.
  const history = owner.page.getByRole('region', { name: 'Gift history' });
  const year = String(revealAt.getUTCFullYear());
  await expect(async () => {
    await owner.page.reload();
    await expect(history.getByRole('region', { name: year })).toContainText(`Red bicycle, given by ${auntP.name}`, { timeout: 2_000 });
  }).toPass({ timeout: 60_000, intervals: [1_000] });
  await expect(owner.page.getByTestId('wishlist-item').filter({ hasText: 'Red bicycle' }).getByTestId('given-by')).toHaveText(
    `From ${auntP.name}`,
  );
  await expectAccessible(owner.page, 'gift history');
  await history.scrollIntoViewIfNeeded();
  await snap(owner.page, 'gift-history');

  // The list rolled over to the same day next year...
  const lists = await callApi<ListInfo[]>(ownerToken, 'GET', '/api/lists');
  const rolled = new Date(lists.find((l) => l.id === list.id)!.revealAt);
  expect(rolled.toISOString().slice(0, 10)).toBe(`${revealAt.getUTCFullYear() + 1}${revealAt.toISOString().slice(4, 10)}`);

  // ...so the uncle's claim now is secret until then, while last season's gift stays in the history.
  await claim(uncleToken, token, items['Wool socks']);
  await owner.page.reload();
  await expect(history).toContainText(`Red bicycle, given by ${auntP.name}`);
  await expect(owner.page.locator('main')).not.toContainText(uncleP.name);
  await expect(owner.page.getByTestId('wishlist-item').filter({ hasText: 'Wool socks' }).getByTestId('given-by')).toHaveCount(0);
  const ownerSaw = owner.bodies.join('\n');
  expect(ownerSaw).not.toContain(uncleP.name);

  await owner.context.close();
});
