import type { components } from './api/schema';

/**
 * The shapes of giving together (issue #39, docs/family.md "Giving together, and thanks
 * afterwards") that more than one feature reads: the shared view's items and the shopping list
 * carry them (features/lists), the giving feature shows and changes them. Amounts are exact
 * decimal strings in the currency's digits ("25.00", JPY "2500"); nothing here does arithmetic
 * on them. From api/openapi.yaml through `npm run gen:api`.
 */
type Schemas = components['schemas'];

/** An amount of money: a decimal string and an ISO 4217 code. */
export type Money = Schemas['Money'];

/** A group gift on a shared item (givers only; the recipient never gets one). */
export type GroupGift = Schemas['GroupGift'];

/** The price read from an item's free text; `currency` is null when the text names none. */
export type PriceAmount = Schemas['PriceAmount'];

/** Who a shopping-list entry or a budget is for: "u:<uid>" or "l:<listId>". */
export type GiftRecipient = Schemas['BudgetRecipient'];

/** The caller's pledge on a shopping-list entry. */
export type ClaimPledge = NonNullable<Schemas['ClaimEntry']['pledge']>;
