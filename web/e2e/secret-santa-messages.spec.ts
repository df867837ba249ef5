import { expect, test, type Page } from '@playwright/test';
import { contextFor, expectAccessible, signInWithEmail, snap } from './support/app';
import { callApi, idToken, newPerson, PASSWORD, type Person } from './support/people';

/**
 * Secret Santa conversations (FAMILY.md, "Secret Santa"; issue #40), in the browser at phone
 * size: the admin of a family of six names two couples with the per-person chips and the couples
 * shortcut and draws; a Santa asks their giftee a question, the giftee hears of it live, answers
 * "to my Santa", and the Santa reads the answer. A third member sees nothing of it, on screen or
 * in any answer their browser received, and nothing the giftee's browser received about messages
 * or notices names their Santa.
 */

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

/**
 * Everything of the live-update stream the page reads, over all its loads: the app reads it with
 * fetch (a stream that never ends), so the recorded responses cannot hold it. The app gets the
 * same bytes through the other branch of a tee; window.__live keeps the current load's.
 */
async function recordLiveStream(page: Page): Promise<string[]> {
  const chunks: string[] = [];
  await page.exposeFunction('__recordLive', (chunk: string) => void chunks.push(chunk));
  await page.addInitScript(() => {
    const w = window as unknown as { __live: string[]; __recordLive: (chunk: string) => Promise<void> };
    w.__live = [];
    const realFetch = window.fetch.bind(window);
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await realFetch(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!url.includes('/api/notifications/stream') || !res.body) return res;
      const [mine, theirs] = res.body.tee();
      void (async () => {
        const reader = mine.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          w.__live.push(value);
          void w.__recordLive(value);
        }
      })().catch(() => undefined);
      return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
    };
  });
  return chunks;
}

/** Waits until the live stream of the page as now loaded is open (its `hello`), so no notice sent from now on is missed. */
async function liveStreamOpen(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __live: string[] }).__live.join('')), { message: 'the live stream says hello' })
    .toContain('event: hello');
}

/** The recorded answers whose path ends with one of `paths`, as "url body". */
function answersTo(bodies: string[], ...paths: string[]): string[] {
  return bodies.filter((b) => paths.some((p) => new URL(b.split(' ', 1)[0]).pathname.endsWith(p)));
}

test('a Santa and their giftee write to each other; nobody else reads it, and the giftee never learns who', async ({ browser }) => {
  test.setTimeout(180_000);
  const people = await Promise.all(
    ['Ann', 'Ben', 'Cleo', 'Dan', 'Eve', 'Finn'].map((name) => newPerson(`santa-msg-${name.toLowerCase()}`, name)),
  );
  const [ann, ben, cleo, dan] = people;
  const family = await familyOf(ann, people.slice(1));
  const annToken = await idToken(ann);
  const families = await callApi<{ id: string; members: { uid: string; displayName: string }[] }[]>(annToken, 'GET', '/api/families');
  const members = families.find((f) => f.id === family.id)!.members;
  expect(members).toHaveLength(6);
  const uid = (p: Person) => members.find((m) => m.displayName === p.name)!.uid;

  // The admin names two couples: Ann & Ben with the chips of Ann's row, Cleo & Dan with the shortcut.
  const admin = await contextFor(browser);
  const adminLive = await recordLiveStream(admin.page);
  await signIn(admin.page, ann);
  await admin.page.goto(`/family/${family.id}/secret-santa`);
  await expect(admin.page.getByTestId('no-draw')).toBeVisible();
  const picker = admin.page.getByTestId('exclusion-picker');
  await picker.getByLabel(`Someone ${ann.name} must not draw`).selectOption({ label: ben.name });
  await picker.getByRole('button', { name: `Add an exclusion for ${ann.name}` }).click();
  await picker.getByLabel('One partner').selectOption({ label: cleo.name });
  await picker.getByLabel('The other partner').selectOption({ label: dan.name });
  await picker.getByRole('button', { name: 'Add couple' }).click();
  // Each exclusion works both ways: both rows of a couple show the other as a chip.
  for (const [a, b] of [
    [ann, ben],
    [ben, ann],
    [cleo, dan],
    [dan, cleo],
  ]) {
    await expect(picker.getByTestId(`exclusions-${uid(a)}`).getByRole('list', { name: `${a.name} must not draw` })).toHaveText(b.name);
  }
  for (const p of people.slice(4)) await expect(picker.getByTestId(`exclusions-${uid(p)}`)).toContainText('Can draw anyone');
  await picker.scrollIntoViewIfNeeded();
  await snap(admin.page, 'secret-santa-exclusions');
  await expectAccessible(admin.page, 'the Secret Santa exclusions (admin)');

  // The draw; should the server find the set unsafe, the screen offers to drop what it names.
  const drawNow = async () => {
    await admin.page.getByRole('button', { name: 'Draw names' }).click();
    await admin.page.getByRole('dialog', { name: 'Draw names now?' }).getByRole('button', { name: 'Draw' }).click();
  };
  await drawNow();
  const problem = admin.page.getByTestId('draw-problem');
  await expect(admin.page.getByTestId('santa-match').or(problem)).toBeVisible();
  if (await problem.isVisible()) {
    console.log(`draw refused: ${await problem.innerText()}`);
    const drops = problem.getByRole('button', { name: /^Drop / });
    while ((await drops.count()) > 0) await drops.first().click();
    await drawNow();
  }
  await expect(admin.page.getByTestId('santa-match')).toBeVisible();
  await expect(admin.page.getByTestId('santa-exclusions')).toContainText(`${ann.name} & ${ben.name}`);

  // Who draws whom: each participant's own answer (nobody's answer names another pair).
  const tokens = new Map<Person, string>();
  const giftee = new Map<Person, Person>();
  for (const p of people) {
    tokens.set(p, p === ann ? annToken : await idToken(p));
    const match = await callApi<{ assignee: { uid: string; displayName: string } }>(tokens.get(p)!, 'GET', `/api/families/${family.id}/secret-santa`);
    giftee.set(p, people.find((q) => uid(q) === match.assignee.uid)!);
  }
  expect(new Set(giftee.values()).size).toBe(6);
  for (const [a, b] of [
    [ann, ben],
    [cleo, dan],
  ]) {
    expect(giftee.get(a)).not.toBe(b);
    expect(giftee.get(b)).not.toBe(a);
  }
  // A pair without the admin (the admin is the third member, who must read nothing), preferably
  // one where the giftee does not give back to their Santa, whose own match would name them.
  const pairs = people.filter((s) => s !== ann && giftee.get(s) !== ann);
  const santaP = pairs.find((s) => giftee.get(giftee.get(s)!) !== s) ?? pairs[0];
  const gifteeP = giftee.get(santaP)!;
  const question = `Do you like board games or books? ${suffix()}`;
  const answer = `Board games, please: anything with dragons! ${suffix()}`;

  const santa = await contextFor(browser);
  const child = await contextFor(browser);
  await recordLiveStream(santa.page);
  const childLive = await recordLiveStream(child.page);
  await signIn(santa.page, santaP);
  await signIn(child.page, gifteeP);

  // The giftee is elsewhere in the app, with the live stream open.
  await child.page.goto('/wishlist');
  await liveStreamOpen(child.page);

  // The Santa asks, from the Messages panel of the Secret Santa screen.
  await santa.page.goto(`/family/${family.id}/secret-santa`);
  await expect(santa.page.getByTestId('santa-match')).toContainText(gifteeP.name);
  await liveStreamOpen(santa.page);
  const santaPanel = santa.page.getByTestId('santa-messages');
  await expect(santaPanel.getByRole('tab', { name: `My giftee: ${gifteeP.name}` })).toHaveAttribute('aria-selected', 'true');
  await expect(santaPanel.getByTestId('conversation-empty')).toBeVisible();
  await santaPanel.getByLabel(`Message to ${gifteeP.name}`).fill(question);
  await santaPanel.getByRole('button', { name: 'Send' }).click();
  await expect(santaPanel.getByRole('log', { name: `Conversation with ${gifteeP.name}` })).toContainText(`You${question}`);
  await expect(santaPanel.getByLabel(`Message to ${gifteeP.name}`)).toHaveValue('');

  // The giftee hears of it live, without a name, and opens the conversation with their Santa.
  await expect(child.page.getByTestId('shell-toast')).toContainText(`Your Secret Santa sent you a message (${family.name})`);
  await child.page.goto(`/family/${family.id}/secret-santa`);
  const childPanel = child.page.getByTestId('santa-messages');
  const santaTab = childPanel.getByRole('tab', { name: /^My Secret Santa/ });
  await expect(santaTab).toHaveAccessibleName('My Secret Santa 1 new message');
  await santaTab.click();
  await expect(santaTab).toHaveAttribute('aria-selected', 'true');
  await expect(childPanel.getByTestId('unread-santa')).toHaveCount(0);
  const withSanta = childPanel.getByRole('log', { name: 'Conversation with your Secret Santa' });
  await expect(withSanta).toContainText(`Your Secret Santa${question}`);
  await childPanel.getByLabel('Message to your Secret Santa').fill(answer);
  await childPanel.getByRole('button', { name: 'Send' }).click();
  await expect(withSanta).toContainText(`You${answer}`);
  await expect(childPanel).not.toContainText(santaP.name);

  // The Santa, on the screen still open, hears of the answer and reads it.
  await expect(santa.page.getByTestId('shell-toast')).toContainText(`Your giftee sent you a message (${family.name})`);
  await expect(santaPanel.getByRole('log', { name: `Conversation with ${gifteeP.name}` })).toContainText(`${gifteeP.name}${answer}`);
  await childPanel.scrollIntoViewIfNeeded();
  await snap(child.page, 'secret-santa-messages');
  await expectAccessible(child.page, 'the Secret Santa messages (giftee)');

  // The third member, the admin, sees neither text in either of their own conversations.
  await admin.page.reload();
  const adminPanel = admin.page.getByTestId('santa-messages');
  await expect(adminPanel.getByTestId('conversation-empty')).toBeVisible();
  await adminPanel.getByRole('tab', { name: /^My Secret Santa/ }).click();
  await expect(adminPanel.getByTestId('conversation-empty')).toContainText('No messages from your Secret Santa yet');
  await expect(admin.page.locator('main')).not.toContainText(question);
  await expect(admin.page.locator('main')).not.toContainText(answer);

  // The giftee's notices as the API lists them, read from their browser.
  const childToken = tokens.get(gifteeP)!;
  const notices = await child.page.evaluate(async (token) => {
    const res = await fetch('/api/notifications', { headers: { Authorization: `Bearer ${token}` } });
    return { status: res.status, body: await res.text() };
  }, childToken);
  expect(notices.status).toBe(200);
  expect(notices.body).toContain('secret-santa-message');

  // Nothing the admin's browser received carries either text.
  await expect.poll(() => answersTo(admin.bodies, '/secret-santa/messages').length).toBeGreaterThan(0);
  const adminSeen = [...admin.bodies, adminLive.join('')].join('\n');
  expect(adminSeen).not.toContain(question);
  expect(adminSeen).not.toContain(answer);
  expect(adminLive.join('')).not.toContain('event: secret-santa-message');
  for (const body of answersTo(admin.bodies, '/secret-santa/messages')) expect(body.slice(body.indexOf(' ') + 1)).toBe('[]');

  // Nothing of messages or notices the giftee's browser received names or identifies their Santa.
  await expect.poll(() => answersTo(child.bodies, '/api/notifications').length).toBeGreaterThan(0);
  const childMessages = answersTo(child.bodies, '/secret-santa/messages');
  expect(childMessages.join('\n')).toContain(question);
  expect(childMessages.join('\n')).toContain(answer);
  expect(childLive.join('')).toContain('event: secret-santa-message');
  const childSeen = [...childMessages, ...answersTo(child.bodies, '/api/notifications'), ...childLive].join('\n');
  for (const secret of [santaP.name, uid(santaP), santaP.email]) expect(childSeen).not.toContain(secret);
  // The giftee's own match names whom they give to, which is not their Santa (unless the draw made a pair of them).
  if (giftee.get(gifteeP) !== santaP) expect(answersTo(child.bodies, '/secret-santa').join('\n')).not.toContain(santaP.name);

  for (const c of [admin, santa, child]) await c.context.close();
});
