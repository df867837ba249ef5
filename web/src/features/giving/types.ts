import type { GiftRecipient, GroupGift, Money } from '../../lib/giving';

export type { GiftRecipient, GroupGift, Money } from '../../lib/giving';

/** The item a group gift is on, as the shared view gives it to a giver. */
export interface GivingItem {
  id: string;
  name: string;
  quantity: number;
  claimed?: number;
  groupGift?: GroupGift;
  priceAmount?: Money | null;
}

/** POST /api/shared/{token}/items/{itemId}/group-gift. */
export interface StartGroupGift {
  target?: string;
  currency?: string;
  amount?: string;
}

/** One person on the caller's budgets (GET /api/budgets). */
export interface BudgetEntry {
  recipient: GiftRecipient;
  budget: Money | null;
  /** One entry per currency: claims at their read price × quantity, plus pledges. */
  totals: Money[];
  /** Claims whose price could not be read. */
  unpriced: number;
}

/** PUT /api/budgets/{key}. */
export interface BudgetDraft extends Money {
  displayName: string;
}

/** A revealed claim or pledge on the owner's item, as GET /api/wishlist gives it after the reveal. */
export interface RevealedGift {
  displayName: string;
  quantity: number;
  revealedAt?: string;
  thankedAt?: string | null;
  amount?: string;
  currency?: string;
}

/** POST /api/wishlist/{itemId}/thanks answer. */
export interface ThanksResult {
  message: string;
  at: string;
  thanked: number;
}

/** One gift of GET /api/gifts/given. */
export interface GivenGift {
  season: number;
  recipient: { displayName: string };
  item: { name: string; imageUrl: string | null };
  quantity: number;
  together: Money | null;
  revealedAt: string;
  thanks: { message: string; at: string } | null;
}
