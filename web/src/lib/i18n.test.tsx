import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AvatarMenu } from '../components/AvatarMenu';
import { inLanguage } from '../test/i18n';
import { errorMessage } from './apiError';
import { formatDate, formatNumber, formatPrice, parsePrice } from './format';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { around, currentLanguage, detectLanguage, FIRST_SCREEN, i18next, LANGUAGE_KEY, LANGUAGES, NAMESPACES, namespaceOf } from './i18n';
import de from '../locales/de.json';
import en from '../locales/en.json';

const user = { id: 'u1', email: 'holly@example.com', displayName: 'Holly', avatar: null, username: 'holly' };

const apiError = (code: string, message: string, status = 409) => ({ status, data: { error: { code, message } } });

describe('i18n', () => {
  it('discovers namespaces from the catalog paths', () => {
    expect(namespaceOf('../features/lists/locales/en.json')).toBe('lists');
    expect(namespaceOf('../locales/de.json')).toBe('common');
    expect(NAMESPACES).toContain('common');
  });

  it('starts in the chosen language, else the browser\'s first one we have, else English', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['it-IT', 'de-AT', 'en-US']);
    expect(detectLanguage()).toBe('de');
    localStorage.setItem(LANGUAGE_KEY, 'fr');
    expect(detectLanguage()).toBe('fr');
    localStorage.removeItem(LANGUAGE_KEY);
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['it-IT', 'pt-BR']);
    expect(detectLanguage()).toBe('en');
  });

  it('has English bundled: its texts are there before anything is fetched', () => {
    expect(currentLanguage()).toBe('en');
    expect(i18next.hasResourceBundle('en', 'common')).toBe(true);
    expect(i18next.t('avatar.logOut')).toBe('Log Out');
  });

  it('bundles the English of every namespace the first screen uses, and only those', () => {
    // The modules main.tsx imports statically (what the first screen downloads; a dynamic
    // import() is not followed), and the namespaces they translate with.
    const src = join(process.cwd(), 'src');
    const seen = new Set<string>();
    const used = new Map<string, string>();
    const resolveImport = (from: string, spec: string) =>
      [spec, `${spec}.ts`, `${spec}.tsx`, `${spec}/index.ts`, `${spec}/index.tsx`]
        .map((c) => resolve(dirname(from), c))
        .find((c) => /\.tsx?$/.test(c) && existsSync(c));
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(file, 'utf8');
      for (const m of code.matchAll(/(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'(\.{1,2}\/[^']+)'/g)) {
        const next = resolveImport(file, m[1]);
        if (next) walk(next);
      }
      for (const m of code.matchAll(/useTranslation\(\s*'([a-z-]+)'|\bns:\s*'([a-z-]+)'|\bt\(\s*'([a-z-]+):/g)) {
        used.set(m[1] ?? m[2] ?? m[3], relative(src, file));
      }
    };
    walk(join(src, 'main.tsx'));
    expect(seen.size).toBeGreaterThan(20);
    expect([...used.keys()].sort(), `used by ${JSON.stringify(Object.fromEntries(used))}`).toEqual([...FIRST_SCREEN].sort());
    // The rest is fetched: a feature only a later screen uses is not among them.
    expect(FIRST_SCREEN).not.toContain('families');
    expect(NAMESPACES).toContain('families');
  });

  it('loads German only when it is chosen', async () => {
    expect(i18next.hasResourceBundle('de', 'common')).toBe(false);
    await inLanguage('de');
    expect(i18next.hasResourceBundle('de', 'common')).toBe(true);
    expect(currentLanguage()).toBe('de');
    expect(i18next.t('avatar.logOut')).toBe('Abmelden');
    expect(document.documentElement.lang).toBe('de');
  });

  it('every language has every key of the English common catalog', async () => {
    const keys = (o: object, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
    expect(keys(de).sort()).toEqual(keys(en).sort());
    for (const lng of ['fr', 'es'] as const) {
      await inLanguage(lng);
      for (const key of keys(en)) expect(i18next.exists(key, { lng, fallbackLng: false } as never), `${lng}: ${key}`).toBe(true);
    }
  });

  it('every feature\'s catalog has the same keys in every language', () => {
    // The catalogs as files, read eagerly here (the app fetches the other languages on demand).
    const catalogs = import.meta.glob<Record<string, unknown>>(['../features/*/locales/*.json', '../locales/*.json'], {
      eager: true,
      import: 'default',
    });
    const keys = (o: object, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
    const byNamespace = new Map<string, Map<string, string[]>>();
    for (const [path, catalog] of Object.entries(catalogs)) {
      const lng = /([^/]+)\.json$/.exec(path)![1];
      const ns = byNamespace.get(namespaceOf(path)) ?? new Map<string, string[]>();
      ns.set(lng, keys(catalog).sort());
      byNamespace.set(namespaceOf(path), ns);
    }
    expect([...byNamespace.keys()].sort()).toEqual([...NAMESPACES]);
    for (const [ns, languages] of byNamespace) {
      expect([...languages.keys()].sort(), ns).toEqual([...LANGUAGES].sort());
      for (const [lng, found] of languages) expect(found, `${ns} in ${lng}`).toEqual(languages.get('en'));
    }
  });

  it('the avatar menu switches the language and remembers it', async () => {
    const u = userEvent.setup();
    render(
      <MemoryRouter>
        <AvatarMenu user={user} onLogout={() => {}} />
      </MemoryRouter>,
    );
    await u.click(screen.getByRole('button', { name: 'Account menu for Holly' }));
    expect(screen.getByRole('menuitemradio', { name: 'English' })).toHaveAttribute('aria-checked', 'true');
    await u.click(screen.getByRole('menuitemradio', { name: 'Deutsch' }));
    expect(await screen.findByRole('menuitem', { name: 'Abmelden' })).toBeInTheDocument();
    expect(screen.getByRole('menuitemradio', { name: 'Deutsch' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('button', { name: 'Kontomenü von Holly' })).toBeInTheDocument();
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('de');
  });
  it('follows a language chosen or un-chosen in another tab', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-US']);
    localStorage.setItem(LANGUAGE_KEY, 'de');
    window.dispatchEvent(new StorageEvent('storage', { key: LANGUAGE_KEY, newValue: 'de' }));
    await vi.waitFor(() => expect(currentLanguage()).toBe('de'));
    localStorage.removeItem(LANGUAGE_KEY);
    window.dispatchEvent(new StorageEvent('storage', { key: LANGUAGE_KEY, newValue: null }));
    await vi.waitFor(() => expect(currentLanguage()).toBe('en'));
  });
});

describe('error codes', () => {
  it('English keeps the server’s own words', () => {
    expect(errorMessage(apiError('not_enough_left', 'Only 1 left.'))).toBe('Only 1 left.');
  });

  it('another language shows its text for a known code, and the server’s English for an unknown one', async () => {
    await inLanguage('de');
    expect(errorMessage(apiError('not_enough_left', 'Only 1 left.'))).toBe('Von diesem Geschenk ist nicht mehr genug übrig.');
    expect(errorMessage(apiError('validation_failed', 'Item name is required.', 422))).toBe('Item name is required.');
    expect(errorMessage({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe(
      'Der Server ist nicht erreichbar. Bitte prüfe deine Verbindung.',
    );
    await inLanguage('fr');
    expect(errorMessage(apiError('share_not_found', 'x', 404))).toBe('Cette liste partagée n’existe pas ou son lien a été révoqué.');
  });

  it('a known code without a message still has a text', () => {
    expect(errorMessage(apiError('rate_limited', '', 429))).toBe('Too many requests. Please wait a moment and try again.');
  });
});

describe('locale formatting', () => {
  it('prices', () => {
    expect(parsePrice('$1,299.50')).toEqual({ amount: 1299.5, currency: 'USD', decimals: 2 });
    expect(parsePrice('12,99 €')).toEqual({ amount: 12.99, currency: 'EUR', decimals: 2 });
    expect(formatPrice('$120', 'en')).toBe('$120');
    expect(formatPrice('$120', 'de')).toBe('120\u00a0$');
    expect(formatPrice('$12.99', 'en')).toBe('$12.99');
    expect(formatPrice('$12.99', 'de')).toBe('12,99\u00a0$');
    expect(formatPrice('$1,299.50', 'fr')).toBe('1\u202f299,50\u00a0$US');
    expect(formatPrice('€5.5', 'es')).toBe('5,50\u00a0€');
    expect(formatPrice('15 EUR', 'en')).toBe('€15');
    expect(formatPrice('about $10-15', 'de')).toBe('about $10-15');
  });

  it('the Christmas countdown: plural rules and numbers of the language', async () => {
    expect(i18next.t('countdown.days', { count: 1 })).toBe('day until Christmas');
    expect(i18next.t('countdown.days', { count: 3 })).toBe('days until Christmas');
    await inLanguage('de');
    expect(i18next.t('countdown.days', { count: 1 })).toBe('Tag bis Weihnachten');
    expect(i18next.t('countdown.days', { count: 24 })).toBe('Tage bis Weihnachten');
    await inLanguage('fr');
    expect(i18next.t('countdown.days', { count: 0 })).toBe('jour avant Noël'); // French: 0 is singular
    expect(formatNumber(1234, 'fr')).toBe('1\u202f234');
    expect(formatNumber(1234, 'de')).toBe('1.234');
  });

  it('writes a whole number below 1000 as Intl would, in every language', () => {
    for (const lng of LANGUAGES) {
      const intl = new Intl.NumberFormat(lng);
      for (const n of [0, 1, 7, 24, 99, 100, 365, 999, 1000, 2.5]) expect(formatNumber(n, lng)).toBe(intl.format(n));
    }
  });

  it('sets a value apart in the language\'s own word order', async () => {
    await inLanguage('de');
    const [before, after] = around((code) => i18next.t('editor.scanNotice', { ns: 'photo', code }));
    expect(before).toBe('Barcode ');
    expect(after).toMatch(/^ gescannt\./);
  });

  it('dates', () => {
    expect(formatDate('2026-12-24', 'en')).toBe('Dec 24, 2026');
    expect(formatDate('2026-12-24T00:00:00Z', 'de')).toBe('24.12.2026');
    expect(formatDate('2026-12-24', 'fr', { dateStyle: 'long' })).toBe('24 décembre 2026');
    expect(formatDate('2026-12-24', 'es', { dateStyle: 'long' })).toBe('24 de diciembre de 2026');
  });
});
