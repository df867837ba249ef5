import { createContext, useContext, type ReactNode } from 'react';
import type { GiftRecipient } from '../../lib/giving';
import type { ClaimEntry, SharedItem } from './types';

/**
 * Where giving together (features/giving) shows on this feature's screens, without either
 * feature knowing the other: the app provides the giving feature's components here
 * (app/FeatureBridges), as it does for the shop-link import.
 */
export interface SharedItemGivingProps {
  token: string;
  item: SharedItem;
}

/** "Give together" on a giver's shared item. */
export type RenderSharedItemGiving = (props: SharedItemGivingProps) => ReactNode;

const SharedItemGivingContext = createContext<RenderSharedItemGiving | null>(null);
export const SharedItemGivingProvider = SharedItemGivingContext.Provider;
export function useSharedItemGiving(): RenderSharedItemGiving | null {
  return useContext(SharedItemGivingContext);
}

/** The shopping list's parts about money: totals and budgets per person, pledges, "Gifts I gave". */
export interface ShoppingListGiving {
  /** Under the title. */
  header: () => ReactNode;
  /** Under a person's name: what is spent on them, against the caller's budget. */
  person: (recipient: GiftRecipient) => ReactNode;
  /** On an entry: the caller's pledge towards a group gift. */
  entry: (entry: ClaimEntry) => ReactNode;
  /** After the people: budgets for people not on the list (keys of those shown). */
  footer: (shownKeys: string[]) => ReactNode;
}

const ShoppingListGivingContext = createContext<ShoppingListGiving | null>(null);
export const ShoppingListGivingProvider = ShoppingListGivingContext.Provider;
export function useShoppingListGiving(): ShoppingListGiving | null {
  return useContext(ShoppingListGivingContext);
}
