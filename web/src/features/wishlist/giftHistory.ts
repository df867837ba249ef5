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
 * filed under a wrong year. `revealedBy` (a time) leaves out claims revealed later: the managers of a
 * list kept for someone else see this season's claims too (who is getting what), not given yet.
 */
export function giftsByYear(items: readonly Pick<WishlistItem, 'id' | 'name' | 'claims'>[], revealedBy?: number): GiftYear[] {
  const years = new Map<number, Gift[]>();
  for (const item of items) {
    for (const claim of item.claims ?? []) {
      const at = claim.revealedAt ? Date.parse(claim.revealedAt) : NaN;
      if (Number.isNaN(at) || (revealedBy !== undefined && at > revealedBy)) continue;
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
