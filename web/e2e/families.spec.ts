import { expect, test, type Page } from '@playwright/test';
import { contextFor, expectAccessible, signInWithEmail, snap } from './support/app';
import { createEmulatorUser } from './support/emulator';
import { BASE_URL, uniqueEmail } from './support/env';
import { callApi, idToken, PASSWORD, type Person } from './support/people';

/** The stack's Mailpit (deploy/local/stack.sh): every invitation email lands there. */
const MAILPIT_URL = process.env.E2E_MAILPIT_URL ?? 'http://127.0.0.1:8025';

const suffix = () => Math.random().toString(36).slice(2, 6);

/** A person not yet signed up (Ben signs up through the app). */
function person(prefix: string, name: string): Person {
  return { email: uniqueEmail(prefix), name: `${name} ${suffix()}`, password: PASSWORD };
}

/** The invitation email Mailpit holds for `address` (exactly one), and the join link's path in it. */
async function invitationPath(address: string): Promise<{ subject: string; path: string }> {
  interface Listed {
    ID: string;
    Subject: string;
    To: { Address: string }[];
  }
  let mine: Listed[] = [];
  await expect
    .poll(
      async () => {
        const res = await fetch(`${MAILPIT_URL}/api/v1/messages?limit=500`);
        const list = (await res.json()) as { messages: Listed[] };
        mine = list.messages.filter((m) => m.To.some((to) => to.Address.toLowerCase() === address.toLowerCase()));
        return mine.length;
      },
      { timeout: 20_000, message: `an invitation email to ${address}` },
    )
    .toBe(1);
  const message = (await (await fetch(`${MAILPIT_URL}/api/v1/message/${mine[0].ID}`)).json()) as { Text: string; HTML: string };
  const link = /https?:\/\/[^\s"]+(\/join\/[A-Za-z0-9_-]{22,})/.exec(message.Text);
  expect(link, `a join link in:\n${message.Text}`).not.toBeNull();
  expect(message.HTML).toContain(link![1]);
  return { subject: mine[0].Subject, path: link![1] };
}

/** The name after "You are Secret Santa for" on the page. */
async function matchOn(page: Page): Promise<string> {
  const card = page.getByTestId('santa-match');
  await expect(card).toContainText('You are Secret Santa for');
  return (await card.getByRole('heading').locator('strong').innerText()).trim();
}

test('a family is made, joined by email invitation, shares lists and draws Secret Santa', async ({ browser }) => {
  test.setTimeout(180_000);
  const annP = person('fam-ann', 'Ann');
  const benP = person('fam-ben', 'Ben');
  const cleoP = person('fam-cleo', 'Cleo');
  const familyName = `The Smiths ${suffix()}`;
  await Promise.all([createEmulatorUser(annP.email, PASSWORD, annP.name), createEmulatorUser(cleoP.email, PASSWORD, cleoP.name)]);

  // Ann has a gift on her default list.
  const annToken = await idToken(annP);
  await callApi(annToken, 'POST', '/api/wishlist', {
    name: 'Red bicycle',
    description: 'A red bicycle with a bell and a basket',
    category: 'Toys',
    price: '$120',
  });

  const ann = await contextFor(browser);
  const ben = await contextFor(browser);
  await ann.page.goto('/login');
  await signInWithEmail(ann.page, annP.email, PASSWORD);

  // The admin reaches the Family screen from the account menu and makes a family.
  await ann.page.getByRole('button', { name: /^Account menu for / }).click();
  await ann.page.getByRole('menuitem', { name: 'My families' }).click();
  await expect(ann.page).toHaveURL(/\/family$/);
  await ann.page.getByRole('button', { name: 'New family' }).click();
  await ann.page.getByRole('dialog', { name: 'New family' }).getByLabel('Family name').fill(familyName);
  await ann.page.getByRole('button', { name: 'Create family' }).click();
  const annCard = ann.page.getByRole('region', { name: familyName });
  await expect(annCard.getByLabel('Invitation link')).toHaveValue(/\/join\/[A-Za-z0-9_-]{22,}$/);
  await snap(ann.page, 'family');
  await expectAccessible(ann.page, 'the Family screen');

  // … and invites Ben by email; the test reads the email from Mailpit.
  await annCard.getByLabel('Invite by email').fill(benP.email);
  await annCard.getByRole('button', { name: 'Send invitation' }).click();
  await expect(ann.page.getByTestId('toast')).toContainText('Invitation sent');
  const mail = await invitationPath(benP.email);
  expect(mail.subject).toContain(familyName);

  // Ben follows the link: it names the family and who invited; he signs up and comes back to join.
  await ben.page.goto(mail.path);
  await expect(ben.page.getByRole('heading', { level: 1, name: familyName })).toBeVisible();
  await expect(ben.page.getByText(`${annP.name} invited you to join`)).toBeVisible();
  await snap(ben.page, 'join');
  await expectAccessible(ben.page, 'the accept page');
  await ben.page.getByRole('link', { name: 'Sign in or sign up to join' }).click();
  await expect(ben.page).toHaveURL(/\/login$/);
  await ben.page.getByRole('tab', { name: 'Sign Up' }).click();
  const signUp = ben.page.getByRole('form', { name: 'Sign up' });
  await signUp.getByLabel(/Display Name/).fill(benP.name);
  await signUp.getByLabel('Email').fill(benP.email);
  await signUp.getByLabel('Password').fill(PASSWORD);
  await signUp.getByRole('button', { name: 'Create Account' }).click();
  await expect(ben.page).toHaveURL(new RegExp(`${mail.path}$`));
  await ben.page.getByRole('button', { name: `Join ${familyName}` }).click();
  await expect(ben.page).toHaveURL(/\/family$/);
  const benCard = ben.page.getByRole('region', { name: familyName });
  await expect(benCard.getByTestId('family-member').filter({ hasText: annP.name })).toContainText('Admin');

  // The admin hears of it live, and sees Ben among the members.
  await expect(ann.page.getByTestId('shell-toast')).toContainText(`joined ${familyName}`);
  await expect(annCard.getByTestId('family-member').filter({ hasText: benP.name })).toBeVisible();

  // Cleo joins through the API with the first link, so the draw has three people.
  const families = await callApi<{ id: string; name: string }[]>(annToken, 'GET', '/api/families');
  const familyId = families.find((f) => f.name === familyName)!.id;
  const firstLink = new URL(await annCard.getByLabel('Invitation link').inputValue()).pathname.split('/').pop()!;
  const cleoToken = await idToken(cleoP);
  await callApi(cleoToken, 'POST', `/api/invites/${firstLink}/accept`);

  // Ann shares her list with the family from its share dialog; Ben shares his through the API.
  await ann.page.goto('/wishlist');
  await ann.page.getByRole('button', { name: 'Share', exact: true }).click();
  const settings = ann.page.getByRole('dialog', { name: 'My Wishlist: sharing' });
  await settings.getByRole('checkbox', { name: familyName }).click();
  await expect(ann.page.getByTestId('toast')).toContainText(`Shared with ${familyName}`);
  await expect(settings.getByRole('checkbox', { name: familyName })).toBeChecked();
  await settings.getByRole('button', { name: 'Done' }).click();
  const benToken = await idToken(benP);
  const benLists = await callApi<{ id: string; isDefault: boolean }[]>(benToken, 'GET', '/api/lists');
  const benList = await callApi<{ id: string }>(benToken, 'POST', '/api/lists', { name: 'Ben wishes' });
  expect(benLists.length).toBeGreaterThan(0);
  await callApi(benToken, 'POST', '/api/wishlist', {
    name: 'Wool socks',
    description: 'Warm wool socks for winter walks',
    category: 'Clothing',
    listId: benList.id,
  });
  // Memberships reach wishlist as events: a family joined a moment ago can take a second to be accepted.
  await expect
    .poll(async () => {
      const res = await fetch(new URL(`/api/lists/${benList.id}`, BASE_URL), {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${benToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ familyIds: [familyId] }),
      });
      return res.status;
    })
    .toBe(200);

  // Both see each other's shared lists (projected by the family service from events), and each opens the other's.
  const benListLink = annCard.getByTestId('family-list').filter({ hasText: 'Ben wishes' });
  const annListLink = benCard.getByTestId('family-list').filter({ hasText: `${annP.name}'s wishlist` });
  await ann.page.goto('/family');
  await expect(async () => {
    await ann.page.reload();
    await expect(benListLink).toContainText(benP.name, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(async () => {
    await ben.page.reload();
    await expect(annListLink).toContainText(annP.name, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await annListLink.click();
  await expect(ben.page.getByTestId('shared-item').filter({ hasText: 'Red bicycle' })).toBeVisible();
  await benListLink.click();
  await expect(ann.page.getByTestId('shared-item').filter({ hasText: 'Wool socks' })).toBeVisible();

  // Ben waits on the Secret Santa screen before the draw.
  await ben.page.goto(`/family/${familyId}/secret-santa`);
  await expect(ben.page.getByTestId('no-draw')).toBeVisible();
  await expect(ben.page.getByRole('button', { name: /Draw names/ })).toHaveCount(0);

  // The admin: an exclusion that leaves no valid draw is explained, then the draw.
  await ann.page.goto('/family');
  await annCard.getByRole('link', { name: 'Secret Santa' }).click();
  await expect(ann.page.getByTestId('no-draw')).toBeVisible();
  // Per person: Ben must not draw Cleo (and so Cleo not Ben), which in a family of three leaves no draw.
  await ann.page.getByLabel(`Someone ${benP.name} must not draw`).selectOption({ label: cleoP.name });
  await ann.page.getByRole('button', { name: `Add an exclusion for ${benP.name}` }).click();
  await ann.page.getByLabel(/Budget/).fill('€30');
  await ann.page.getByRole('button', { name: 'Draw names' }).click();
  await ann.page.getByRole('dialog', { name: 'Draw names now?' }).getByRole('button', { name: 'Draw' }).click();
  await expect(ann.page.getByTestId('draw-problem')).toBeVisible();
  console.log(`draw_impossible message: ${await ann.page.getByTestId('draw-problem').innerText()}`);
  await expect(ann.page.getByTestId('santa-match')).toHaveCount(0);
  await ann.page.getByRole('button', { name: `Remove the exclusion ${benP.name} & ${cleoP.name}` }).click();
  await expect(ann.page.getByRole('list', { name: `${benP.name} must not draw` })).toHaveCount(0);
  await snap(ann.page, 'secret-santa-admin');
  await expectAccessible(ann.page, 'the Secret Santa screen (admin)');
  await ann.page.getByRole('button', { name: 'Draw names' }).click();
  await ann.page.getByRole('dialog', { name: 'Draw names now?' }).getByRole('button', { name: 'Draw' }).click();

  // Each sees only their own match; Ben's arrives live with the notice, on the page he has open.
  await expect(ben.page.getByTestId('shell-toast')).toContainText('Your Secret Santa match is ready');
  const benMatch = await matchOn(ben.page);
  const annMatch = await matchOn(ann.page);
  await expect(ben.page.getByTestId('exchange-budget')).toHaveText('€30');
  await snap(ben.page, 'secret-santa');
  await expectAccessible(ben.page, 'the Secret Santa screen (member)');
  const cleoMatch = await callApi<{ assignee: { displayName: string } }>(cleoToken, 'GET', `/api/families/${familyId}/secret-santa`);
  expect(annMatch).not.toBe(annP.name);
  expect(benMatch).not.toBe(benP.name);
  expect(new Set([annMatch, benMatch, cleoMatch.assignee.displayName])).toEqual(new Set([annP.name, benP.name, cleoP.name]));
  // Nothing Ann's or Ben's browser read names anyone else's match.
  for (const [who, ctx, mine] of [
    ['Ann', ann, annMatch],
    ['Ben', ben, benMatch],
  ] as const) {
    const named = new Set(
      ctx.bodies
        .filter((b) => b.split(' ', 1)[0].endsWith('/secret-santa'))
        .map((b) => b.slice(b.indexOf(' ') + 1))
        .filter((text) => text.includes('"assignee"'))
        .map((text) => (JSON.parse(text) as { assignee: { displayName: string } }).assignee.displayName),
    );
    expect([...named], `${who}'s answers`).toEqual([mine]);
    const others = [annP.name, benP.name, cleoP.name].filter((n) => n !== mine && n !== (who === 'Ann' ? annP.name : benP.name));
    expect(ctx.bodies.filter((b) => b.includes('"assignee"')).join('\n')).not.toContain(others[0]);
  }

  // Ben's button opens the lists of the person he gives to.
  if (benMatch === annP.name) {
    await ben.page.getByRole('link', { name: `Open ${annP.name}'s wishlist` }).click();
    await expect(ben.page.getByTestId('shared-item').filter({ hasText: 'Red bicycle' })).toBeVisible();
  } else {
    await expect(ben.page.getByTestId('santa-match')).toContainText(`${cleoP.name} has not shared a list`);
  }

  await Promise.all([ann.context.close(), ben.context.close()]);
});
