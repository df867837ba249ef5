import { inLanguage } from '../test/i18n';
import { i18next, type Language } from './i18n';
import { DEFAULT_LIST_NAME, listTitle } from './listName';

// The stored name of everyone's first list is "My Wishlist". It reads so only to its owner; to
// anyone else it is Tom's wishlist, in every language. A name its owner chose is never changed.
const EXPECTED: Record<Language, { mine: string; toms: string }> = {
  en: { mine: 'My Wishlist', toms: "Tom's wishlist" },
  de: { mine: 'Mein Wunschzettel', toms: 'Wunschzettel von Tom' },
  fr: { mine: 'Ma liste de souhaits', toms: 'Liste de souhaits de Tom' },
  es: { mine: 'Mi lista de deseos', toms: 'Lista de deseos de Tom' },
};

describe('a list name as its reader says it', () => {
  for (const [lng, want] of Object.entries(EXPECTED) as [Language, (typeof EXPECTED)[Language]][]) {
    it(`${lng}: the owner's own default list, someone else's, and a chosen name`, async () => {
      await inLanguage(lng);
      const t = i18next.getFixedT(lng, 'common');
      expect(listTitle(t, DEFAULT_LIST_NAME)).toBe(want.mine);
      expect(listTitle(t, DEFAULT_LIST_NAME, null)).toBe(want.mine);
      expect(listTitle(t, DEFAULT_LIST_NAME, 'Tom')).toBe(want.toms);
      // Someone else's list never reads "My …" in the reader's language.
      expect(listTitle(t, DEFAULT_LIST_NAME, 'Tom')).not.toBe(want.mine);
      expect(listTitle(t, 'Weihnachten 2026', 'Tom')).toBe('Weihnachten 2026');
      expect(listTitle(t, 'Weihnachten 2026')).toBe('Weihnachten 2026');
    });
  }
});
