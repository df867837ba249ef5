import { expect, test, type Page } from '@playwright/test';
import { contextFor, expectAccessible, signInWithEmail, snap } from './support/app';
import { callApi, idToken, newPerson, PASSWORD, type Person } from './support/people';

async function signIn(page: Page, person: Person): Promise<void> {
  await page.goto('/login');
  await signInWithEmail(page, person.email, PASSWORD);
}

test('a list is shared, claimed by family and kept secret from its owner', async ({ browser }) => {
  // Three people and seven screens checked by axe: 72 s on a quiet machine, 126 s seen on a
  // busy one.
  test.setTimeout(240_000);
  const [ownerP, visitorP, memberP] = await Promise.all([
    newPerson('owner', 'Tom'),
    newPerson('aunt', 'Aunt Ann'),
    newPerson('uncle', 'Uncle Bob'),
  ]);

  // The owner: a most-wanted gift on their default list (what /wishlist shows), shared.
  const ownerToken = await idToken(ownerP);
  const lists = await callApi<{ id: string; isDefault: boolean }[]>(ownerToken, 'GET', '/api/lists');
  const list = lists.find((l) => l.isDefault)!;
  await callApi(ownerToken, 'POST', '/api/wishlist', {
    name: 'Red bicycle',
    description: 'A red bicycle with a bell and a basket',
    category: 'Toys',
    price: '$120',
    listId: list.id,
    quantity: 1,
  });
  await callApi(ownerToken, 'POST', '/api/wishlist', {
    name: 'Wool socks',
    description: 'Warm wool socks for winter walks',
    category: 'Clothing',
    listId: list.id,
    priority: 1,
  });

  const owner = await contextFor(browser);
  const visitor = await contextFor(browser);
  const member = await contextFor(browser);
  await signIn(owner.page, ownerP);
  await signIn(member.page, memberP);

  // The owner marks the bicycle most wanted with a note, and makes the list's link on My Wishlist.
  await owner.page.goto('/wishlist');
  await owner.page.getByRole('button', { name: 'Edit Red bicycle' }).click();
  const sheet = owner.page.getByRole('dialog', { name: 'Edit Red bicycle' });
  await sheet.getByRole('radio', { name: 'Most wanted' }).check();
  await sheet.getByLabel(/Notes/).fill('Size 24 inch');
  await snap(owner.page, 'edit-item-sheet');
  await sheet.getByRole('button', { name: 'Save' }).click();
  await expect(sheet).toHaveCount(0);
  await expect(owner.page.getByTestId('wishlist-item').filter({ hasText: 'Red bicycle' })).toContainText('★ Most wanted');
  await owner.page.getByRole('button', { name: 'Share', exact: true }).click();
  const settings = owner.page.getByRole('dialog', { name: 'My Wishlist: sharing' });
  await settings.getByRole('button', { name: 'Make a share link' }).click();
  const linkField = settings.getByLabel(/Anyone with this link/);
  await expect(linkField).toHaveValue(/\/l\/[A-Za-z0-9_-]{22,}$/);
  const share = { token: new URL(await linkField.inputValue()).pathname.split('/').pop()! };
  await settings.getByRole('button', { name: 'Done' }).click();

  // The visitor opens the link signed out: most wanted first, with its price and notes.
  await visitor.page.goto(`/l/${share.token}`);
  // Its stored name is "My Wishlist"; to anyone but its owner it is Tom's wishlist.
  await expect(visitor.page.getByRole('heading', { level: 1, name: `${ownerP.name}'s wishlist` })).toBeVisible();
  await expect(visitor.page).toHaveTitle(new RegExp(`^${ownerP.name}'s wishlist`));
  const cards = visitor.page.getByTestId('shared-item');
  await expect(cards.first()).toContainText('Red bicycle');
  await expect(cards.first()).toContainText('★ Most wanted');
  await expect(cards.first()).toContainText('$120');
  await expect(cards.first()).toContainText('Size 24 inch');
  await expect(cards.nth(1)).toContainText('Wool socks');
  await snap(visitor.page, 'shared-list-anonymous');

  // The second member has the list open before the claim.
  await member.page.goto(`/l/${share.token}`);
  const memberBike = member.page.getByTestId('shared-item').filter({ hasText: 'Red bicycle' });
  await expect(memberBike.getByRole('button', { name: "I'll get this: Red bicycle" })).toBeVisible();
  await snap(member.page, 'shared-list-claim');
  await expectAccessible(member.page, 'a shared list with claim buttons');

  // Signed out there is nothing to claim with: the page invites the visitor to sign in, and brings them back to the list.
  await expect(visitor.page.getByRole('button', { name: /I'll get this/ })).toHaveCount(0);
  await visitor.page.getByRole('link', { name: 'Sign in to see what is taken' }).click();
  await expect(visitor.page).toHaveURL(/\/login$/);
  await signInWithEmail(visitor.page, visitorP.email, PASSWORD);
  await expect(visitor.page).toHaveURL(new RegExp(`/l/${share.token}$`));
  const visitorBike = visitor.page.getByTestId('shared-item').filter({ hasText: 'Red bicycle' });
  await visitorBike.getByRole('button', { name: "I'll get this: Red bicycle" }).click();
  await expect(visitorBike).toContainText('You are getting 1');

  // The second member, who had the list open, sees it taken: live through shared-list-changed.
  // If the stream's event does not come within 15 s, a reload must still show it (noted in the report).
  const live = await expect(memberBike)
    .toContainText('Taken', { timeout: 15_000 })
    .then(() => true)
    .catch(() => false);
  test.info().annotations.push({ type: 'taken-seen', description: live ? 'live' : 'after reload' });
  console.log(`second member saw the claim ${live ? 'live' : 'only after a reload'}`);
  if (!live) await member.page.reload();
  await expect(memberBike).toContainText('Taken');
  await expect(memberBike.getByRole('button', { name: "I'll get this: Red bicycle" })).toHaveCount(0);
  // Taken: listed after what is still to buy, and no Shop button inviting a second purchase; its taker keeps theirs.
  await expect(member.page.getByTestId('shared-item').last()).toContainText('Red bicycle');
  await expect(member.page.getByTestId('shared-item').first()).toContainText('Wool socks');
  await expect(memberBike.getByRole('button', { name: /^Shop for / })).toHaveCount(0);
  await snap(member.page, 'shared-list-taken');
  await expect(visitorBike.getByRole('button', { name: 'Shop for Red bicycle (opens in a new tab)' })).toBeVisible();

  // The owner's pages and every answer their browser got say nothing of the claim.
  await owner.page.goto(`/l/${share.token}`);
  const ownerBike = owner.page.getByTestId('shared-item').filter({ hasText: 'Red bicycle' });
  await expect(ownerBike).toBeVisible();
  await expect(owner.page.getByText('Your list, as your family sees it')).toBeVisible();
  await expect(owner.page.locator('main')).not.toContainText(/Taken|taken|You are getting|From /);
  await expect(owner.page.getByRole('button', { name: /I'll get this/ })).toHaveCount(0);
  await owner.page.goto('/wishlist');
  const ownerCard = owner.page.getByTestId('wishlist-item').filter({ hasText: 'Red bicycle' });
  await expect(ownerCard).toBeVisible();
  await expect(owner.page.locator('main')).not.toContainText(/Taken|taken|claimed|From /);
  await expect(owner.page.locator('body')).not.toContainText(visitorP.name);
  const ownerSaw = owner.bodies.join('\n');
  expect(ownerSaw).toContain('/api/shared/');
  expect(ownerSaw).not.toContain(visitorP.name);
  // Every owner item carries "claims": [] until a claim's own date has passed: never one filled.
  expect(ownerSaw).not.toMatch(/"(claimed|mine)"|"claims":\[\{/);

  // The owner seeing it after its reveal date (only ever in the future) is promise.spec.ts's gift history.

  await Promise.all([owner.context.close(), visitor.context.close(), member.context.close()]);
});
