import type { components } from '../../lib/api/schema';

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
/** A family the caller is in, as a list can be shared with it. */
export type FamilyChoice = Pick<Schemas['Family'], 'id' | 'name'>;

/** Most wanted first, then newest. The server already orders; this keeps it so after local edits. */
export function mostWantedFirst<T extends { priority: number; createdAt: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => b.priority - a.priority || b.createdAt.localeCompare(a.createdAt));
}

/** Units nobody has claimed yet, as a non-owner sees them. */
export function unitsLeft(item: SharedItem): number {
  return Math.max(0, item.quantity - (item.claimed ?? 0));
}
