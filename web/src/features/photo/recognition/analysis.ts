import { shopSearchUrl } from '../../../lib/shop';
import type { NewWishlistItem } from '../../../lib/wishlistItem';
import type { ProductAnalysis } from './api';

/** The defaults of docs/spec.md, section 3, for fields an analysis left out. */
export function withAnalysisDefaults(raw: Partial<ProductAnalysis> | null | undefined): ProductAnalysis {
  const name = raw?.name?.trim() || 'Unknown Product';
  return {
    id: raw?.id || `${Date.now()}-${Math.random().toString(36).slice(2, 9)}`,
    name,
    description: raw?.description?.trim() || 'No description available',
    category: raw?.category?.trim() || 'Other',
    searchQuery: raw?.searchQuery?.trim() || raw?.name?.trim() || 'gift item',
    approximatePrice: raw?.approximatePrice?.trim() || null,
    features: Array.isArray(raw?.features) ? raw.features.filter((f) => typeof f === 'string' && f.trim()) : [],
    // An answer that does not say it came from the model is not shown as one.
    source: raw?.source ?? 'fallback',
  };
}

/**
 * What the overlay shows when the analysis failed (docs/spec.md, section 8 'AI'): a generic item
 * the visitor can still save, saying plainly that it is not an AI answer.
 */
export function fallbackAnalysis(reason: string): ProductAnalysis {
  return {
    id: `fallback-${Date.now()}`,
    name: 'Gift Item',
    description: `We could not identify this item (${reason}). It is saved as a generic gift; you can describe it in your own words on the wishlist.`,
    category: 'Gifts',
    searchQuery: 'holiday gift',
    approximatePrice: null,
    features: [],
    source: 'fallback',
  };
}

/** The wishlist item the photo and analysis flows send (docs/spec.md, section 3). */
export function analysisToWishlistItem(analysis: ProductAnalysis, imageDataUrl: string | null): NewWishlistItem {
  return {
    name: analysis.name,
    description: analysis.description,
    price: analysis.approximatePrice ?? null,
    imageUrl: imageDataUrl ?? '',
    category: analysis.category,
    features: analysis.features,
    searchQuery: analysis.searchQuery,
    shoppingUrl: shopSearchUrl(analysis.searchQuery || analysis.name),
    aiGenerated: true,
    sentToSanta: false,
  };
}
