import type { components } from '../../lib/api/schema';
import type { GroupGift, PriceAmount } from '../../lib/giving';

export type { GiftRecipient, GroupGift, Money, PriceAmount } from '../../lib/giving';

/** The giving-together shapes, from api/openapi.yaml through `npm run gen:api`. */
type Schemas = components['schemas'];

/** The item a group gift is on, as the shared view gives it to a giver. */
export interface GivingItem {
  id: string;
  name: string;
  quantity: number;
  claimed?: number;
  groupGift?: GroupGift | null;
  priceAmount?: PriceAmount | null;
}

/** POST /api/shared/{token}/items/{itemId}/group-gift. */
export type StartGroupGift = Schemas['GroupGiftRequest'];

/** One person on the caller's budgets (GET /api/budgets). */
export type BudgetEntry = Schemas['BudgetEntry'];

/** PUT /api/budgets/{key}. */
export type BudgetDraft = Schemas['BudgetRequest'];

/**
 * A revealed claim or pledge on the owner's item (GET /api/wishlist's `claims`, ClaimBy): a pledge
 * has quantity 0 and its amount.
 */
export type RevealedGift = Pick<Schemas['ClaimBy'], 'displayName' | 'quantity'> &
  Partial<Pick<Schemas['ClaimBy'], 'revealedAt' | 'thankedAt' | 'amount' | 'currency'>>;

/** POST /api/wishlist/{id}/thanks answer. */
export type ThanksResult = Schemas['Thanks'];

/** One gift of GET /api/gifts/given. */
export type GivenGift = Schemas['GiftGiven'];
