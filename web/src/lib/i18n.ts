import i18next, { type InitOptions } from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next, useTranslation } from 'react-i18next';
import { safeGet, safeSet } from './storage';

/**
 * Internationalisation (react-i18next). The layout is a contract (docs/architecture.md, 'A text'):
 * - a feature owns its texts as the namespace named after its folder, in
 *   src/features/<feature>/locales/{en,de,fr,es}.json, used with useTranslation('<feature>');
 * - shared UI (components/, app/) uses the namespace 'common' in src/locales/{en,de,fr,es}.json;
 *   the texts for the API's error codes are in 'common' under "errors.<code>".
 * The first screen's namespaces (FIRST_SCREEN) are bundled in English; every other catalog,
 * English included, is fetched when needed: a language when chosen, a namespace before the first
 * screen that uses it (lazyWithTexts, which every route loaded on demand goes through).
 * A namespace is discovered from its file's path: adding a catalog file needs no change here.
 */
export const LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language's name in itself, for the switch. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
};

export const LANGUAGE_KEY = 'santa:language';
export const DEFAULT_NS = 'common';

type Catalog = Record<string, unknown>;

/**
 * The namespaces home and the shell around every screen use (header, menu, navigation, the
 * sign-in guard, the push prompt, recent wishes): bundled in English with the first screen, so
 * it paints in one go. Every other English catalog is downloaded with the first screen that
 * needs it. A component of the first screen that uses another namespace suspends until its
 * catalog is there (never shows a key); i18n.test.tsx keeps this list in step with the code.
 */
export const FIRST_SCREEN = ['common', 'home', 'auth', 'push', 'wishlist'] as const;

// import.meta.glob takes literal patterns only: these are FIRST_SCREEN's English files.
const english = import.meta.glob<Catalog>(
  ['../locales/en.json', '../features/{home,auth,push,wishlist}/locales/en.json'],
  { eager: true, import: 'default' },
);
const onDemand = import.meta.glob<Catalog>(
  ['../features/*/locales/*.json', '../locales/*.json', '!../locales/en.json', '!../features/{home,auth,push,wishlist}/locales/en.json'],
  { import: 'default' },
);

/** 'common' for src/locales/*.json, the feature's folder name for src/features/<feature>/locales/*.json. */
export function namespaceOf(path: string): string {
  return /features\/([^/]+)\/locales\/[^/]+\.json$/.exec(path)?.[1] ?? DEFAULT_NS;
}

function languageOf(path: string): string {
  return /([^/]+)\.json$/.exec(path)?.[1] ?? '';
}

const bundled: Record<string, Catalog> = {};
for (const [path, catalog] of Object.entries(english)) bundled[namespaceOf(path)] = catalog;

const loaders = new Map<string, () => Promise<Catalog>>();
for (const [path, load] of Object.entries(onDemand)) loaders.set(`${languageOf(path)}/${namespaceOf(path)}`, load);

/** Every namespace that has an English catalog. */
export const NAMESPACES = [
  ...new Set([...Object.keys(bundled), ...[...loaders.keys()].filter((k) => k.startsWith('en/')).map((k) => k.slice(3))]),
].sort();

/**
 * The language to start in: the one chosen in the avatar menu, else the first of the browser's
 * languages that we have ('de-AT' counts as 'de'), else English.
 */
export function detectLanguage(): Language {
  const browser = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const candidate of [safeGet(localStorage, LANGUAGE_KEY), ...browser]) {
    const base = candidate?.toLowerCase().split('-')[0];
    if (base && (LANGUAGES as readonly string[]).includes(base)) return base as Language;
  }
  return 'en';
}

/** The i18next options; `lng` fixes the language (tests), otherwise it is detected. */
function options(lng: string): InitOptions {
  return {
    lng,
    resources: { en: bundled },
    partialBundledLanguages: true,
    ns: [...FIRST_SCREEN],
    defaultNS: DEFAULT_NS,
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    load: 'languageOnly',
    interpolation: { escapeValue: false }, // React escapes
    // A component whose namespace is not loaded yet waits in the nearest Suspense boundary
    // rather than showing keys (the screens loaded on demand have theirs loaded beforehand).
    react: { useSuspense: true },
  };
}

let started: Promise<unknown> | null = null;

/**
 * Starts i18next once (main.tsx before the first render, the test setup with `lng: 'en'`).
 * Resolves when the language's catalogs are there, so the first paint is already translated.
 */
export function startI18n(lng?: string): Promise<unknown> {
  if (!started) {
    i18next
      .use(resourcesToBackend((language: string, namespace: string) => {
        const load = loaders.get(`${language}/${namespace}`);
        // A language without this catalog falls back to English key by key.
        return load ? load() : Promise.resolve({});
      }))
      .use(initReactI18next);
    i18next.on('languageChanged', () => {
      if (typeof document !== 'undefined') document.documentElement.lang = currentLanguage();
    });
    started = i18next.init(options(lng ?? detectLanguage()));
    // A language chosen (or un-chosen) in another tab of the app applies here too.
    if (typeof window !== 'undefined') {
      window.addEventListener('storage', (e) => {
        if (e.key === LANGUAGE_KEY || e.key === null) void i18next.changeLanguage(detectLanguage());
      });
    }
  }
  return started;
}

/** Loads every namespace's catalogs in the language shown (and English, its fallback). */
export function loadAllTexts(): Promise<void> {
  return i18next.loadNamespaces(NAMESPACES);
}

/**
 * A module loaded on demand (a route's screen, a lazy component) together with every catalog,
 * so what it renders has its texts at once.
 */
export async function lazyWithTexts<M>(load: () => Promise<M>): Promise<M> {
  const [module] = await Promise.all([load(), loadAllTexts()]);
  return module;
}

/** The supported language in use ('en' until something else was resolved). */
export function currentLanguage(): Language {
  const lng = i18next.resolvedLanguage ?? i18next.language;
  return (LANGUAGES as readonly string[]).includes(lng) ? (lng as Language) : 'en';
}

/** The avatar menu's switch: remembered on this device, like the theme. */
export async function chooseLanguage(lng: Language): Promise<void> {
  safeSet(localStorage, LANGUAGE_KEY, lng);
  await i18next.changeLanguage(lng);
}

/** The language shown now; re-renders when it changes. */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? i18n.language;
  return (LANGUAGES as readonly string[]).includes(lng) ? (lng as Language) : 'en';
}

/**
 * A text with one value set apart in markup (<strong>, <code>): the parts before and after the
 * value, in the language's own word order. `text` gets a marker to put where the value goes.
 */
export function around(text: (marker: string) => string): [string, string] {
  const MARK = '\u2063';
  const [before, after = ''] = text(MARK).split(MARK);
  return [before, after];
}

/** A text of the 'common' namespace outside React (lib helpers); `t` from useTranslation inside. */
export function translate(key: string, values?: Record<string, unknown>): string {
  return i18next.t(key, { ns: DEFAULT_NS, ...values }) as string;
}

/** Whether `key` has a text in 'common' for the current language or its fallback. */
export function hasText(key: string): boolean {
  return i18next.exists(key, { ns: DEFAULT_NS });
}

export { i18next };
