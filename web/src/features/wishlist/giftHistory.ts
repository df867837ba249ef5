import type { WishlistItem } from './types';

/** One revealed claim on one of the owner's items: who gave what, and when it was revealed. */
export interface Gift {
  itemId: string;
  name: string;
  giver: string;
  quantity: number;
  revealedAt: string;
}

export interface GiftYear {
  year: number;
  gifts: Gift[];
}

/**
 * The list's gift history: every revealed claim of the owner's items, grouped by the year of its
 * reveal date, newest year first, and newest first inside a year (then by gift name). The year is
 * read in UTC, as the API sends reveal dates (midnight UTC), so 26 December never turns into
 * another year in a far-off time zone. Claims without a readable date are left out rather than
 * filed under a wrong year.
 */
export function giftsByYear(items: readonly Pick<WishlistItem, 'id' | 'name' | 'claims'>[]): GiftYear[] {
  const years = new Map<number, Gift[]>();
  for (const item of items) {
    for (const claim of item.claims ?? []) {
      const at = Date.parse(claim.revealedAt);
      if (Number.isNaN(at)) continue;
      const year = new Date(at).getUTCFullYear();
      const gift = { itemId: item.id, name: item.name, giver: claim.displayName, quantity: claim.quantity, revealedAt: claim.revealedAt };
      years.set(year, [...(years.get(year) ?? []), gift]);
    }
  }
  return [...years.entries()]
    .sort(([a], [b]) => b - a)
    .map(([year, gifts]) => ({
      year,
      gifts: gifts.sort((a, b) => Date.parse(b.revealedAt) - Date.parse(a.revealedAt) || a.name.localeCompare(b.name)),
    }));
}
