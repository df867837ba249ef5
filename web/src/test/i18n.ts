import { i18next, loadAllTexts, startI18n, type Language } from '../lib/i18n';

/**
 * Tests render in English: the setup starts i18next with `lng: 'en'` (no detector, so the test
 * machine's locale never matters) and switches back after every test.
 */
export async function renderInEnglish(): Promise<void> {
  await startI18n('en');
  if (i18next.language !== 'en') await i18next.changeLanguage('en');
  // A test renders any feature on its own, as if reached through its route (which loads them).
  await loadAllTexts();
}

/** Switches the rendered language for one test; its catalogs are loaded on demand, as in the app. */
export async function inLanguage(lng: Language): Promise<void> {
  await i18next.changeLanguage(lng);
}
