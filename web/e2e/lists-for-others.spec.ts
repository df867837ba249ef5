import { expect, test, type Page } from '@playwright/test';
import { contextFor, expectAccessible, signInWithEmail, snap } from './support/app';
import { callApi, idToken, newPerson, PASSWORD, type Person } from './support/people';

/**
 * Lists for someone else (docs/family.md, "Lists for someone else" and "Suggestions"), in the
 * browser at phone size: a parent makes a list for a child without an account and adds the other
 * parent as co-manager; a grandparent suggests a gift and an aunt claims it; the co-manager sees
 * both. A teenager whose list a parent made sees neither, on screen or in any answer their
 * browser received (the promise).
 */

test.use({ viewport: { width: 360, height: 780 } });

const suffix = () => Math.random().toString(36).slice(2, 6);

async function signIn(page: Page, person: Person): Promise<void> {
  await page.goto('/login');
  await signInWithEmail(page, person.email, PASSWORD);
}

/** A family made by `admin` through the API and joined by `others` with its link. */
async function familyOf(admin: Person, others: Person[]): Promise<{ id: string; name: string }> {
  const name = `The Smiths ${suffix()}`;
  const fam = await callApi<{ id: string; invite: { token: string } }>(await idToken(admin), 'POST', '/api/families', { name });
  for (const other of others) await callApi(await idToken(other), 'POST', `/api/invites/${fam.invite.token}/accept`);
  return { id: fam.id, name };
}

/** A member's uid, as the family answer names them. */
async function uidOf(token: string, familyId: string, person: Person): Promise<string> {
  const families = await callApi<{ id: string; members: { uid: string; displayName: string }[] }[]>(token, 'GET', '/api/families');
  return families.find((f) => f.id === familyId)!.members.find((m) => m.displayName === person.name)!.uid;
}

function itemCard(page: Page, name: string) {
  return page.getByTestId('shared-item').filter({ has: page.getByRole('heading', { name }) });
}

test('a parent keeps a list for a child with a co-manager; a grandparent suggests, an aunt claims, and the parents see both', async ({ browser }) => {
  test.setTimeout(240_000);
  const [mum, dad, gran, aunt] = await Promise.all([
    newPerson('others-mum', 'Mum'),
    newPerson('others-dad', 'Dad'),
    newPerson('others-gran', 'Gran'),
    newPerson('others-aunt', 'Aunt Ann'),
  ]);
  const family = await familyOf(mum, [dad, gran, aunt]);
  const child = `Emma ${suffix()}`;

  // Mum makes the list for Emma, who has no account, leaving its name to the server.
  const parent = await contextFor(browser);
  await signIn(parent.page, mum);
  await parent.page.goto('/wishlist');
  await parent.page.getByRole('button', { name: 'New list' }).click();
  const newList = parent.page.getByRole('dialog', { name: 'New list' });
  await newList.getByRole('radio', { name: /Someone without an account/ }).check();
  await newList.getByLabel('Their name').fill(child);
  await snap(parent.page, 'new-list-for-someone');
  await newList.getByRole('button', { name: 'Create list' }).click();
  await expect(parent.page).toHaveURL(/[?&]list=/);
  const listId = new URL(parent.page.url()).searchParams.get('list')!;
  const picker = parent.page.getByRole('combobox', { name: 'List' });
  const kept = picker.locator('optgroup[label="Lists I keep for others"] option');
  await expect(kept).toHaveCount(1);
  await expect(kept).toContainText(child);

  // Settings: Dad becomes co-manager; the list gets its link and is shared with the family.
  await parent.page.getByRole('button', { name: 'Settings' }).click();
  const settings = parent.page.getByRole('dialog', { name: /: settings$/ });
  await expect(settings.getByTestId('list-recipient')).toHaveText(`For ${child} (no account)`);
  const keepers = settings.getByRole('region', { name: 'Kept by' });
  await keepers.getByLabel('Add a co-manager').selectOption({ label: dad.name });
  await keepers.getByRole('button', { name: 'Add' }).click();
  await expect(keepers.getByTestId('list-manager')).toHaveCount(2);
  await expect(keepers).toContainText(dad.name);
  await settings.getByRole('button', { name: 'Make a share link' }).click();
  const link = await settings.getByLabel(/Anyone with this link/).inputValue();
  await settings.getByRole('checkbox', { name: family.name }).click(); // its state follows the server's answer, so wait for it below
  await expect(settings.getByRole('checkbox', { name: family.name })).toBeChecked();
  await snap(parent.page, 'list-settings-kept');
  await settings.getByRole('button', { name: 'Done' }).click();
  const token = new URL(link).pathname.split('/').pop()!;
  await callApi(await idToken(mum), 'POST', '/api/wishlist', {
    name: 'Drum',
    description: 'A small drum with two sticks',
    category: 'Toys',
    listId,
  });

  // Gran suggests a kite from the shared page.
  const grandma = await contextFor(browser);
  await signIn(grandma.page, gran);
  await grandma.page.goto(`/l/${token}`);
  await expect(grandma.page.getByTestId('shared-whose')).toContainText(`${child}’s wishlist, kept by`);
  await grandma.page.getByRole('button', { name: 'Suggest a gift' }).click();
  const suggest = grandma.page.getByRole('dialog', { name: `Suggest a gift for ${child}` });
  await suggest.getByLabel('Gift').fill('Red kite');
  await suggest.getByLabel(/Description/).fill('A red kite with a long tail');
  await suggest.getByLabel(/Price/).fill('$15');
  await suggest.getByRole('button', { name: 'Suggest' }).click();
  await expect(suggest).toHaveCount(0);
  await expect(itemCard(grandma.page, 'Red kite').getByTestId('suggested-by')).toHaveText('Suggested by you');

  // The aunt sees whose idea it is and claims it.
  const auntie = await contextFor(browser);
  await signIn(auntie.page, aunt);
  await auntie.page.goto(`/l/${token}`);
  const kite = itemCard(auntie.page, 'Red kite');
  await expect(kite.getByTestId('suggested-by')).toHaveText(`Suggested by ${gran.name}`);
  await kite.getByRole('button', { name: "I'll get this: Red kite" }).click();
  await expect(kite).toContainText('You are getting 1');

  // Dad, co-manager, sees the suggestion and who is getting it, on his own view of the list.
  const father = await contextFor(browser);
  await signIn(father.page, dad);
  await father.page.goto(`/wishlist?list=${listId}`);
  const dadsKite = father.page.getByTestId('wishlist-item').filter({ hasText: 'Red kite' });
  await expect(dadsKite.getByTestId('suggested-by')).toHaveText(`Suggested by ${gran.name}`);
  await expect(dadsKite.getByTestId('claimed-by')).toHaveText(`Getting it: ${aunt.name}`);
  await snap(father.page, 'kept-list-manager');
  // ...and on the shared page, where he may edit or delete anyone's suggestion.
  await father.page.goto(`/l/${token}`);
  await expect(itemCard(father.page, 'Red kite').getByTestId('claimed-by')).toHaveText(`Getting it: ${aunt.name}`);
  await expect(itemCard(father.page, 'Red kite').getByRole('button', { name: 'Delete Red kite' })).toBeVisible();
  await snap(father.page, 'shared-list-suggestions');

  // The family page names the list after Emma, with who keeps it.
  await parent.page.goto('/family');
  const row = parent.page.getByRole('region', { name: family.name }).getByTestId('family-list').filter({ hasText: child });
  await expect(row).toContainText(`${child}’s wishlist, kept by`);
  await expect(row).toContainText(dad.name);

  for (const c of [parent, grandma, auntie, father]) await c.context.close();
});

test('a teenager whose list a parent made sees it as their own: no suggestion, no claim, in no answer', async ({ browser }) => {
  test.setTimeout(180_000);
  const [mum, teen, gran, aunt] = await Promise.all([
    newPerson('teen-mum', 'Mum'),
    newPerson('teen-teen', 'Teen'),
    newPerson('teen-gran', 'Gran'),
    newPerson('teen-aunt', 'Aunt Ann'),
  ]);
  const family = await familyOf(mum, [teen, gran, aunt]);
  const mumToken = await idToken(mum);
  const teenUid = await uidOf(mumToken, family.id, teen);

  // Mum makes the list for the teenager (a family member) and shares it; the teen adds a wish too.
  const list = await callApi<{ id: string; role: string }>(mumToken, 'POST', '/api/lists', { recipient: { kind: 'member', uid: teenUid } });
  expect(list.role).toBe('manager');
  const { token } = await callApi<{ token: string }>(mumToken, 'POST', `/api/lists/${list.id}/share`);
  const teenToken = await idToken(teen);
  const headphones = await callApi<{ id: string }>(teenToken, 'POST', '/api/wishlist', {
    name: 'Headphones',
    description: 'Wireless headphones, black',
    category: 'Electronics',
    listId: list.id,
  });
  // Gran suggests, the aunt claims the suggestion and the teen's own wish.
  const suggestion = await callApi<{ id: string }>(await idToken(gran), 'POST', `/api/shared/${token}/suggestions`, {
    name: 'Skateboard',
    description: 'A skateboard with blue wheels',
  });
  const auntToken = await idToken(aunt);
  for (const itemId of [suggestion.id, headphones.id]) {
    await callApi(auntToken, 'PUT', `/api/shared/${token}/items/${itemId}/claim`, { quantity: 1, purchased: false });
  }

  const teenager = await contextFor(browser);
  await signIn(teenager.page, teen);
  await teenager.page.goto(`/wishlist?list=${list.id}`);
  const main = teenager.page.locator('main');
  await expect(teenager.page.getByTestId('wishlist-item').filter({ hasText: 'Headphones' })).toBeVisible();
  // Their own list, among "My lists", with nothing of the givers.
  const picker = teenager.page.getByRole('combobox', { name: 'List' });
  await expect(picker.locator('optgroup[label="Lists I keep for others"]')).toHaveCount(0);
  await expect(teenager.page.getByRole('button', { name: 'Share' })).toBeVisible();
  await expect(main).not.toContainText('Skateboard');
  await expect(main).not.toContainText(gran.name);
  await expect(main).not.toContainText(aunt.name);
  await expect(teenager.page.getByTestId('claimed-by')).toHaveCount(0);
  await expect(teenager.page.getByTestId('suggested-by')).toHaveCount(0);
  await expectAccessible(teenager.page, "a teenager's list");

  // Their own link, signed in: the recipient is its owner, and sees it as an owner does.
  await teenager.page.goto(`/l/${token}`);
  await expect(teenager.page.getByTestId('shared-whose')).toHaveText('Your list, as your family sees it');
  await expect(teenager.page.getByTestId('shared-item')).toHaveCount(1);
  await expect(teenager.page.getByRole('button', { name: 'Suggest a gift' })).toHaveCount(0);
  await expect(main).not.toContainText(/Skateboard|Taken|taken|Getting it|Suggested/);

  // Nothing the teenager's browser received differs because of the suggestion or the claims.
  const seen = teenager.bodies.join('\n');
  expect(seen).toContain('Headphones');
  expect(seen).not.toContain('Skateboard');
  expect(seen).not.toContain(gran.name);
  expect(seen).not.toContain(aunt.name);
  expect(seen).not.toMatch(/"(suggested|suggestedBy|claimed|mine)"/);
  // Its own list answers carry the gift history, `claims`, as every owner's do: empty before the reveal.
  expect(seen).not.toMatch(/"claims":\[\{/);
  expect(seen).not.toContain(suggestion.id);

  await teenager.context.close();
});
