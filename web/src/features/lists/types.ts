import type { components, paths } from '../../lib/api/schema';

/** The family-list shapes, from api/openapi.yaml through `npm run gen:api`. */
type Schemas = components['schemas'];

export type WishList = Schemas['List'];
export type ListDraft = Schemas['ListDraft'];
export type ListShare = Schemas['Share'];
export type SharedList = Schemas['SharedList'];
export type SharedItem = SharedList['items'][number];
export type ClaimRequest = Schemas['ClaimRequest'];
export type ClaimResult = Schemas['ClaimResult'];
export type ClaimEntry = Schemas['ClaimEntry'];
/** Who a list is for: the caller themselves, a person without an account, or a family member. */
export type ListRecipient = WishList['recipient'];
/** What POST /api/lists takes as the recipient (a member by uid only). */
export type RecipientDraft = NonNullable<ListDraft['recipient']>;
export type ListManager = WishList['managers'][number];
/** A family the caller is in, as a list can be shared with it or its people picked. */
export type FamilyChoice = Pick<Schemas['Family'], 'id' | 'name' | 'members'>;
/** A person of the caller's families, once, whatever number of families they share. */
export type FamilyPerson = Pick<FamilyChoice['members'][number], 'uid' | 'displayName'>;

/** Most wanted first, then newest. The server already orders; this keeps it so after local edits. */
export function mostWantedFirst<T extends { priority: number; createdAt: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => b.priority - a.priority || b.createdAt.localeCompare(a.createdAt));
}

/** Units nobody has claimed yet, as a non-owner sees them. */
export function unitsLeft(item: SharedItem): number {
  return Math.max(0, item.quantity - (item.claimed ?? 0));
}

/**
 * A list the caller keeps for someone else (a child, a grandparent, a teenager's): they are a
 * giver there. A list made for the caller (role `recipient`) is their own, exactly like a list
 * they made for themselves, and must look like one.
 */
export function isKeptForOthers(list: Pick<WishList, 'role' | 'recipient'>): boolean {
  if (list.role === 'recipient') return false;
  return list.role === 'manager' || list.recipient.kind !== 'self';
}

/** The recipient's name for a list kept for someone else; null for the caller's own. */
export function recipientName(recipient: ListRecipient | undefined): string | null {
  if (!recipient) return null;
  if (recipient.kind === 'person') return recipient.name ?? null;
  if (recipient.kind === 'member') return recipient.displayName ?? null;
  return null;
}

/** Everyone in the caller's families but the caller, once each, by name. */
export function familyPeople(families: readonly FamilyChoice[], me: string | undefined): FamilyPerson[] {
  const people = new Map<string, FamilyPerson>();
  for (const family of families) {
    for (const { uid, displayName } of family.members) {
      if (uid !== me && !people.has(uid)) people.set(uid, { uid, displayName });
    }
  }
  return [...people.values()].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** A list may have the creator and up to 4 co-managers. */
export const MAX_MANAGERS = 5;
/** A person's name on a list for them: 1-40 characters (the server says so too). */
export const MAX_RECIPIENT_NAME = 40;

/** A suggestion's fields as the form sends them (POST/PATCH /api/shared/{token}/suggestions). */
export type SuggestionDraft = NonNullable<
  paths['/api/shared/{token}/suggestions']['post']['requestBody']
>['content']['application/json'];

/**
 * How many of a shared list's gifts are still to buy, as a giver counts them (a gift with a unit
 * nobody claimed). Null for anyone but a giver (`viewer` member): the recipient and anonymous
 * visitors get no claim fields, and the figure must never be guessed for them.
 */
export function stillToBuy(list: SharedList): number | null {
  if (list.viewer !== 'member') return null;
  return list.items.filter((item) => unitsLeft(item) > 0).length;
}

/** A giver's order: what is still to buy first, the gifts nobody can claim any more last (each part kept in order). */
export function takenLast(items: readonly SharedItem[]): SharedItem[] {
  return [...items.filter((i) => unitsLeft(i) > 0), ...items.filter((i) => unitsLeft(i) === 0)];
}
