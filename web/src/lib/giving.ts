/**
 * The shapes of giving together (issue #39, FAMILY.md "Giving together, and thanks afterwards")
 * that more than one feature reads: the shared view's items and the shopping list carry them
 * (features/lists), the giving feature shows and changes them. Amounts are exact decimal strings
 * in the currency's digits ("25.00", JPY "2500"); nothing here does arithmetic on them.
 */

/** An amount of money: a decimal string and an ISO 4217 code. */
export interface Money {
  amount: string;
  currency: string;
}

/** One giver's pledge towards a group gift, as the other givers see it. */
export interface GroupGiftPledge {
  displayName: string;
  amount: string;
  /** The caller's own pledge. */
  mine: boolean;
}

/** A group gift on a shared item (givers only; the recipient never gets one). */
export interface GroupGift {
  organizer: { displayName: string };
  organizerIsMe: boolean;
  target: string;
  currency: string;
  pledged: string;
  remaining: string;
  complete: boolean;
  pledges: GroupGiftPledge[];
}

/** What a giver's shared item adds for giving together. */
export interface GivingItemFields {
  groupGift?: GroupGift;
  /** The price read from the item's free text, null when it cannot be read. */
  priceAmount?: Money | null;
}

/** Who a shopping-list entry or a budget is for: "u:<uid>" or "l:<listId>". */
export interface GiftRecipient {
  key: string;
  displayName: string;
}

/** The caller's pledge on a shopping-list entry. */
export interface ClaimPledge extends Money {
  groupGift: { target: string; pledged: string; complete: boolean };
}

/** What GET /api/claims adds to each entry for giving together. */
export interface GivingClaimFields {
  recipient?: GiftRecipient;
  /** Price × quantity where the price reads. */
  amount?: Money | null;
  pledge?: ClaimPledge | null;
}
