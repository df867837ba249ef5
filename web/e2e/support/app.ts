import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { SCREENSHOT_DIR } from './env';

/**
 * Saves a phone-size screenshot of the current screen to docs/screenshots/<name>.png. A screen
 * photographed in the default look (English, light) is also photographed and checked with axe in
 * the dark theme (dark-<name>.png) and in German (de-<name>.png): the page is switched in place,
 * as a second tab of the app would switch it, so the screen's state stays as the test left it.
 * Names that already say their look (dark-, de-) are taken as they are. Every photographed screen
 * is also held to 44 × 44 px targets (expectTargets), which axe does not measure.
 */
export async function snap(page: Page, name: string): Promise<void> {
  await shoot(page, name);
  await expectTargets(page, name);
  if (/^(dark|de)-/.test(name) || (await page.locator('html').getAttribute('data-theme')) === 'dark') return;
  if ((await page.locator('html').getAttribute('lang')) !== 'en') return;

  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await shoot(page, `dark-${name}`);
  await expectAccessible(page, `${name} (dark)`);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

  await setLanguage(page, 'de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await shoot(page, `de-${name}`);
  await expectAccessible(page, `${name} (German)`);
  await setLanguage(page, null);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
}

/** Chooses (or un-chooses, null) the app's language from outside, like another tab would. */
async function setLanguage(page: Page, lng: string | null): Promise<void> {
  await page.evaluate((value) => {
    const key = 'santa:language';
    if (value) localStorage.setItem(key, value);
    else localStorage.removeItem(key);
    window.dispatchEvent(new StorageEvent('storage', { key, newValue: value, storageArea: localStorage }));
  }, lng);
}

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Let fonts, images and entry animations settle so the picture is what a person sees.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(350);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled', caret: 'hide' });
}

/** The axe rule sets the suite holds every screen to: WCAG 2.0, 2.1 and 2.2 A/AA (2.2 brings target size, 2.5.8) and best practice. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** axe-core on the current screen: no serious or critical violation; one line per screen in the run's output. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const minor = results.violations.length - bad.length;
  console.log(`axe ${screen}: ${results.passes.length} rules pass, ${bad.length} serious or critical, ${minor} minor or moderate`);
  const report = bad
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`)
    .join('\n');
  expect(bad, `accessibility violations on ${screen}:\n${report}`).toEqual([]);
}

/**
 * What axe cannot measure: every action button, toggle (aria-pressed), tab and checkbox label on the
 * screen is a target of at least 44 × 44 px (a checkbox's label is its target: it toggles it).
 */
export async function expectTargets(page: Page, screen: string): Promise<void> {
  const small = await page
    .locator(".button:not(.button--link), [aria-pressed], [role='tab'], label:has(> input[type='checkbox'])")
    .evaluateAll((nodes) =>
      nodes
        .filter((n) => (n as HTMLElement).offsetParent !== null)
        .map((n) => ({ text: (n.textContent ?? '').trim().slice(0, 40), box: n.getBoundingClientRect() }))
        .filter(({ box }) => box.width < 44 || box.height < 44)
        .map(({ text, box }) => `${text || '(no text)'}: ${Math.round(box.width)} × ${Math.round(box.height)}`),
    );
  console.log(`targets ${screen}: ${small.length} under 44 × 44 px`);
  expect(small, `targets under 44 × 44 px on ${screen}`).toEqual([]);
}

/** The titled toast (only one is shown at a time). */
export function toast(page: Page) {
  return page.getByTestId('toast');
}

/** The toast shows title (and description): one check of both, so a short-lived toast is seen whole. */
export async function expectToast(page: Page, title: string, description?: string): Promise<void> {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const words = description ? `${escape(title)}[\\s\\S]*${escape(description)}` : escape(title);
  await expect(toast(page)).toContainText(new RegExp(words));
}

/** Signs in through the login screen and waits until the app shows the account. */
export async function signInWithEmail(page: Page, email: string, password: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign In with Email' }).click();
  await expect(page.getByRole('button', { name: /^Account menu for / })).toBeVisible();
}

export async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Account menu for / }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Log In' })).toBeVisible();
}

/** A phone-size browser context of its own (the config's viewport), with every /api/ answer it reads kept. */
export async function contextFor(browser: Browser): Promise<{ context: BrowserContext; page: Page; bodies: string[] }> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const bodies: string[] = [];
  page.on('response', async (response) => {
    if (!new URL(response.url()).pathname.startsWith('/api/')) return;
    bodies.push(`${response.url()} ${await response.text().catch(() => '')}`);
  });
  return { context, page, bodies };
}
