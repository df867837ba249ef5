import type { components } from './api/schema';

/**
 * The wishlist item, shared by every feature that shows or saves one (the wishlist, the photo
 * flow, the live stream's refresh). The shapes come from api/openapi.yaml through
 * `npm run gen:api` (./api/schema.ts): a field added there reaches every use here.
 */
type Schemas = components['schemas'];

/**
 * What a giver's answer adds to an item, as the shared view types it: on a list kept for someone
 * else, its managers' GET /api/wishlist items also carry `suggested`, `suggestedBy`, `claimed` and
 * `mine` (api/openapi.yaml, OwnerItem). Absent for everyone else.
 */
type GiverFields = Partial<Pick<Schemas['SharedList']['items'][number], 'suggested' | 'suggestedBy' | 'claimed' | 'mine'>>;

/** A wishlist item as the gateway answers it. */
export type WishlistItem = Schemas['Item'] & GiverFields;

/**
 * What POST /api/wishlist accepts; the form, the photo flow and gift options send subsets.
 * `priority` and `quantity` have server defaults (2 and 1), which openapi-typescript marks required.
 */
export type NewWishlistItem = Omit<Schemas['ItemDraft'], 'priority' | 'quantity'> &
  Partial<Pick<Schemas['ItemDraft'], 'priority' | 'quantity'>> &
  Required<Pick<Schemas['ItemDraft'], 'name' | 'description'>>;

/** What PATCH /api/wishlist/{id} accepts: any draft field, and only the ones that change. */
export type ItemEdit = Partial<Schemas['ItemDraft']>;

/** POST /api/vision/analyze's answer (docs/spec.md, section 3 'Product analysis result', without the image). */
export type ProductAnalysis = Schemas['ProductAnalysis'];

/** POST /api/vision/generate's answers: gift mode, and item mode with estimatedPrice and category. */
export type GeneratedGift = Schemas['GiftItem'];
export type GeneratedEntry = Schemas['WishlistEntry'];

/** The error body of every 4xx/5xx answer. */
export type ApiErrorBody = Schemas['Error'];
