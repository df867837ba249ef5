import { expect, test } from '@playwright/test';
import { contextFor, signInWithEmail } from './support/app';
import { callApi, idToken, newPerson, PASSWORD, type Person } from './support/people';

const suffix = () => Math.random().toString(36).slice(2, 6);

/** A family made by `admin` through the API, joined by `others` with its first link. */
async function familyOf(admin: Person, others: Person[]): Promise<{ id: string; name: string; firstLink: string; adminToken: string }> {
  const name = `The Smiths ${suffix()}`;
  const adminToken = await idToken(admin);
  const fam = await callApi<{ id: string; invite: { token: string } }>(adminToken, 'POST', '/api/families', { name });
  for (const other of others) {
    await callApi(await idToken(other), 'POST', `/api/invites/${fam.invite.token}/accept`);
  }
  return { id: fam.id, name, firstLink: fam.invite.token, adminToken };
}

test('the admin revokes an invitation from the family screen, and the link then leads nowhere', async ({ browser }) => {
  const ann = await newPerson('promise-ann', 'Ann');
  const fam = await familyOf(ann, []);
  const admin = await contextFor(browser);
  await admin.page.goto('/login');
  await signInWithEmail(admin.page, ann.email, PASSWORD);
  await admin.page.goto('/family');
  const card = admin.page.getByRole('region', { name: fam.name });

  // The first link is open; "New link" replaces it, and the old one stops working.
  await expect(card.getByTestId('open-invite')).toHaveCount(1);
  await card.getByRole('button', { name: 'Make an invitation link' }).click();
  const link = await card.getByLabel('Invitation link').inputValue();
  await expect(card.getByTestId('open-invite')).toHaveCount(1);
  const visitor = await contextFor(browser);
  await visitor.page.goto(`/join/${fam.firstLink}`);
  await expect(visitor.page.getByRole('heading', { name: 'This invitation no longer works' })).toBeVisible();

  // Revoke the new one too: its page now says it no longer works.
  await card.getByRole('button', { name: 'Revoke the invitation: the link for anyone' }).click();
  await expect(card.getByText('No open invitations.')).toBeVisible();
  await expect(card.getByLabel('Invitation link')).toHaveCount(0);
  await visitor.page.goto(new URL(link).pathname);
  await expect(visitor.page.getByRole('heading', { name: 'This invitation no longer works' })).toBeVisible();
});

test('every participant sees the exclusions, an unsafe set is explained, and three are warned', async ({ browser }) => {
  test.setTimeout(120_000);
  const [ann, ben, cleo, dan, eve] = await Promise.all(
    ['Ann', 'Ben', 'Cleo', 'Dan', 'Eve'].map((name) => newPerson(`promise-${name.toLowerCase()}`, name)),
  );
  const five = await familyOf(ann, [ben, cleo, dan, eve]);
  const admin = await contextFor(browser);
  await admin.page.goto('/login');
  await signInWithEmail(admin.page, ann.email, PASSWORD);
  await admin.page.goto(`/family/${five.id}/secret-santa`);
  await expect(admin.page.getByTestId('no-draw')).toBeVisible();

  // Ann gives to Ben or Eve only: whoever of them gives elsewhere would know the other gives to Ann.
  // Exclusions are set per person: Ann must not draw Cleo, nor Dan (each works both ways).
  for (const other of [cleo, dan]) {
    await admin.page.getByLabel(`Someone ${ann.name} must not draw`).selectOption({ label: other.name });
    await admin.page.getByRole('button', { name: `Add an exclusion for ${ann.name}` }).click();
  }
  const annChips = admin.page.getByRole('list', { name: `${ann.name} must not draw` });
  await expect(annChips).toContainText(cleo.name);
  await expect(annChips).toContainText(dan.name);
  await admin.page.getByRole('button', { name: 'Draw names' }).click();
  await admin.page.getByRole('dialog', { name: 'Draw names now?' }).getByRole('button', { name: 'Draw' }).click();
  const problem = admin.page.getByTestId('draw-problem');
  await expect(problem).toContainText(`Drop ${ann.name} & ${dan.name} to keep the draw secret`);
  await problem.getByRole('button', { name: `Drop ${ann.name} & ${dan.name}` }).click();
  await expect(annChips).not.toContainText(dan.name);
  await admin.page.getByRole('button', { name: 'Draw names' }).click();
  await admin.page.getByRole('dialog', { name: 'Draw names now?' }).getByRole('button', { name: 'Draw' }).click();
  await expect(admin.page.getByTestId('santa-match')).toBeVisible();

  // Dan, not an admin, sees the exclusion the draw used, and no warning.
  const member = await contextFor(browser);
  await member.page.goto('/login');
  await signInWithEmail(member.page, dan.email, PASSWORD);
  await member.page.goto(`/family/${five.id}/secret-santa`);
  await expect(member.page.getByTestId('santa-exclusions')).toContainText(`${ann.name} & ${cleo.name}`);
  await expect(member.page.getByTestId('everyone-can-deduce')).toHaveCount(0);

  // A family of three: the draw goes ahead, and the screen says everyone can work it out.
  const three = await familyOf(dan, [ben, cleo]);
  await callApi(three.adminToken, 'POST', `/api/families/${three.id}/secret-santa`, { exclusions: [] });
  await member.page.goto(`/family/${three.id}/secret-santa`);
  await expect(member.page.getByTestId('everyone-can-deduce')).toContainText('With only 3 of you, everyone can work out the whole draw');
  await expect(member.page.getByTestId('santa-exclusions')).toContainText('None');
});
