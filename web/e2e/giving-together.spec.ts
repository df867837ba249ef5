import { expect, test, type Locator, type Page } from '@playwright/test';
import { contextFor, expectAccessible, signInWithEmail, snap } from './support/app';
import { callApi, idToken, newPerson, PASSWORD, type Person } from './support/people';

/**
 * Giving together (issue #39), seen in the browser: three relatives fund one gift to completion
 * and the item shows as taken; the recipient's browser receives nothing of it; after the reveal
 * the recipient thanks, and the giver sees the thanks on "Gifts I gave".
 */

async function signIn(page: Page, person: Person): Promise<void> {
  await page.goto('/login');
  await signInWithEmail(page, person.email, PASSWORD);
}

/**
 * Keeps every notice the page shows (the shell's and the titled toasts), across reloads, in the
 * tab's sessionStorage: a notice lasts seconds, this sees all of them whenever it is read.
 */
async function recordNotices(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen = () => JSON.parse(sessionStorage.getItem('e2e:notices') ?? '[]') as string[];
    const keep = (node: Node) => {
      if (!(node instanceof HTMLElement)) return;
      for (const el of [node, ...Array.from(node.querySelectorAll<HTMLElement>('[data-testid="shell-toast"], [data-testid="toast"]'))]) {
        if (el.matches('[data-testid="shell-toast"], [data-testid="toast"]')) {
          sessionStorage.setItem('e2e:notices', JSON.stringify([...seen(), el.textContent ?? '']));
        }
      }
    };
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver((changes) => changes.forEach((c) => c.addedNodes.forEach(keep))).observe(document.body, {
        childList: true,
        subtree: true,
      });
    });
  });
}

function notices(page: Page): Promise<string[]> {
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('e2e:notices') ?? '[]') as string[]);
}

/** The card's markup with its item's name and id taken out, to compare two items' cards. */
async function cardShape(card: Locator, name: string, id: string): Promise<string> {
  const html = await card.evaluate((el) => el.outerHTML);
  return html.split(name).join('NAME').split(id).join('ID');
}

test('three relatives fund a gift together, the recipient learns nothing, and a thank-you reaches "Gifts I gave"', async ({ browser }) => {
  test.setTimeout(360_000);
  const [emmaP, annP, benP, cyP] = await Promise.all([
    newPerson('giving-emma', 'Emma'),
    newPerson('giving-ann', 'Aunt Ann'),
    newPerson('giving-ben', 'Uncle Ben'),
    newPerson('giving-cy', 'Cousin Cy'),
  ]);
  const emmaToken = await idToken(emmaP);
  const benToken = await idToken(benP);

  // Emma's list: two identical castles but for their names; one will be funded together, the
  // other stays unclaimed, so the recipient's view of both can be compared.
  const list = await callApi<{ id: string }>(emmaToken, 'POST', '/api/lists', { name: 'Christmas castles' });
  const gift = { description: 'The big castle with the drawbridge', category: 'Toys', price: '$120.00', listId: list.id };
  const funded = await callApi<{ id: string }>(emmaToken, 'POST', '/api/wishlist', { ...gift, name: 'Lego castle' });
  const control = await callApi<{ id: string }>(emmaToken, 'POST', '/api/wishlist', { ...gift, name: 'Lego harbour' });
  const { token } = await callApi<{ token: string }>(emmaToken, 'POST', `/api/lists/${list.id}/share`);

  // Emma keeps her own list open, and its link, all along.
  const emma = await contextFor(browser);
  await recordNotices(emma.page);
  await signIn(emma.page, emmaP);
  await emma.page.goto(`/wishlist?list=${list.id}`);
  await expect(emma.page.getByTestId('wishlist-item').filter({ hasText: 'Lego castle' })).toBeVisible();

  // Aunt Ann starts the group gift: the target is the price, and she is in for 50.
  const ann = await contextFor(browser);
  await recordNotices(ann.page);
  await signIn(ann.page, annP);
  await ann.page.goto(`/l/${token}`);
  const annCastle = ann.page.getByTestId('shared-item').filter({ hasText: 'Lego castle' });
  await annCastle.getByRole('button', { name: 'Give together: Lego castle' }).click();
  const sheet = ann.page.getByRole('dialog', { name: 'Give together: Lego castle' });
  await expect(sheet.getByRole('textbox', { name: 'Target (USD)' })).toHaveValue('120.00');
  await expect(sheet).toContainText('No money moves through Santa Wishlist');
  await sheet.getByRole('textbox', { name: /My own share/ }).fill('50');
  await expectAccessible(ann.page, 'group gift start sheet');
  await snap(ann.page, 'giving-start-sheet');
  // The surprise is revealed a few minutes from now (a date in the past is refused), set just
  // before the first pledge: every pledge below takes that date as its own.
  const revealAt = new Date(Math.ceil((Date.now() + 150_000) / 1000) * 1000);
  await callApi(emmaToken, 'PATCH', `/api/lists/${list.id}`, { revealAt: revealAt.toISOString() });
  await sheet.getByRole('button', { name: 'Start the group gift' }).click();
  await expect(sheet).toHaveCount(0);
  await expect(annCastle.getByRole('progressbar', { name: 'Pledged towards Lego castle' })).toHaveAttribute(
    'aria-valuetext',
    '$50.00 of $120.00',
  );

  // Uncle Ben pledges 45 (through the API, as his phone would).
  await callApi(benToken, 'PUT', `/api/shared/${token}/items/${funded.id}/pledge`, { amount: '45.00' });

  // Cousin Cy sees who is in, and completes it with the 25 left.
  const cy = await contextFor(browser);
  await signIn(cy.page, cyP);
  await cy.page.goto(`/l/${token}`);
  const cyCastle = cy.page.getByTestId('shared-item').filter({ hasText: 'Lego castle' });
  const together = cyCastle.getByRole('region', { name: 'Giving together' });
  await expect(together).toContainText(`Started by ${annP.name}`);
  await expect(together).toContainText('$95.00 of $120.00 pledged · $25.00 to go');
  await expect(together.getByRole('list', { name: 'Who is in' })).toContainText(benP.name);
  await together.scrollIntoViewIfNeeded();
  await snap(cy.page, 'giving-shared-item');
  const inFor = together.getByRole('textbox', { name: "I'm in for (USD)" });
  await inFor.fill('25.001');
  await together.getByRole('button', { name: "I'm in" }).click();
  await expect(together).toContainText('Too many decimals for USD.');
  await inFor.fill('25');
  await together.getByRole('button', { name: "I'm in" }).click();
  await expect(together).toContainText('Complete: $120.00 of $120.00 pledged.');
  // Complete: the item counts as taken, for every giver.
  await expect(cyCastle).toContainText('Taken');
  await ann.page.reload();
  await expect(annCastle).toContainText('Taken');
  await expect(annCastle.getByRole('button', { name: /I'll get this/ })).toHaveCount(0);

  // Ann's shopping list has her pledge, and a private budget for Emma against it.
  await ann.page.goto('/claims');
  const forEmma = ann.page.getByRole('region', { name: `For ${emmaP.name}` });
  await expect(forEmma.getByTestId('pledge-line')).toContainText("Together: you're in for $50.00 · complete ($120.00)");
  await forEmma.getByRole('button', { name: `Set a budget for ${emmaP.name}` }).click();
  await forEmma.getByRole('textbox', { name: 'Currency' }).fill('USD');
  await forEmma.getByRole('textbox', { name: 'Budget (USD)' }).fill('80');
  await forEmma.getByRole('button', { name: 'Save budget' }).click();
  await expect(forEmma.getByTestId('budget')).toContainText('$50.00 of $80.00 · $30.00 left');
  await snap(ann.page, 'giving-shopping-list');

  // Emma's browser received nothing of it: no group gift, pledge or name in any answer, no notice,
  // and the funded castle's card is the unclaimed one's, but for its name.
  await emma.page.reload();
  await emma.page.goto(`/l/${token}`);
  const emmaCards = emma.page.getByTestId('shared-item');
  await expect(emmaCards).toHaveCount(2);
  expect(await cardShape(emmaCards.filter({ hasText: 'Lego castle' }), 'Lego castle', funded.id)).toBe(
    await cardShape(emmaCards.filter({ hasText: 'Lego harbour' }), 'Lego harbour', control.id),
  );
  await emma.page.goto(`/wishlist?list=${list.id}`);
  const emmaCastle = emma.page.getByTestId('wishlist-item').filter({ hasText: 'Lego castle' });
  await expect(emmaCastle).toBeVisible();
  expect(await cardShape(emmaCastle, 'Lego castle', funded.id)).toBe(
    await cardShape(emma.page.getByTestId('wishlist-item').filter({ hasText: 'Lego harbour' }), 'Lego harbour', control.id),
  );
  const emmaSaw = emma.bodies.join('\n');
  for (const leak of ['groupGift', 'pledge', '"pledged"', annP.name, benP.name, cyP.name]) expect(emmaSaw).not.toContain(leak);
  expect(await notices(emma.page)).toEqual([]);
  await expect(emma.page.locator('main')).not.toContainText(/Giving together|Say thank you|Taken/);

  // After the reveal: Emma sees who gave, and thanks them. Reloads until the server's clock has
  // passed the date, so no fixed wait decides the outcome.
  await ann.page.goto('/gifts/given');
  const thankButton = emmaCastle.getByRole('button', { name: 'Say thank you for Lego castle' });
  await expect(async () => {
    await emma.page.reload();
    await expect(thankButton).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 240_000, intervals: [2_000] });
  await thankButton.click();
  const thanks = emma.page.getByRole('dialog', { name: 'Thank you for Lego castle' });
  for (const giver of [annP, benP, cyP]) await expect(thanks).toContainText(giver.name);
  await thanks.getByRole('textbox', { name: 'Your message' }).fill('The castle is wonderful, thank you all!');
  await snap(emma.page, 'giving-thanks-sheet');
  await thanks.getByRole('button', { name: 'Send thanks' }).click();
  await expect(thanks).toHaveCount(0);
  await expect(emmaCastle.getByTestId('thanked')).toHaveText('Thanked');

  // Ann, on "Gifts I gave", gets the notice live and sees the thanks under the year of the reveal.
  await expect
    .poll(() => notices(ann.page), { timeout: 30_000 })
    .toContainEqual(`${emmaP.name} says thank you for Lego castle: “The castle is wonderful, thank you all!”`);
  const season = ann.page.getByRole('region', { name: String(revealAt.getUTCFullYear()) });
  await expect(async () => {
    await ann.page.reload();
    await expect(season.getByTestId('given-gift').filter({ hasText: 'Lego castle' })).toContainText(
      'The castle is wonderful, thank you all!',
      { timeout: 2_000 },
    );
  }).toPass({ timeout: 30_000, intervals: [1_000] });
  await expect(season.getByTestId('given-gift').filter({ hasText: 'Lego castle' })).toContainText(
    `For ${emmaP.name} · together, your share $50.00`,
  );
  await snap(ann.page, 'giving-gifts-given');

  await Promise.all([emma.context.close(), ann.context.close(), cy.context.close()]);
});
