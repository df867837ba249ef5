import { api } from '../../app/api';
import { apiRoute } from '../../lib/api/paths';
import type { components } from '../../lib/api/schema';

/** POST /api/lookup/barcode's answer: the product a scanned code names. */
export type BarcodeProduct = components['schemas']['BarcodeProduct'];
/** POST /api/lookup/url's answer: an item filled from a shop's page (its picture already ours). */
export type LinkItem = components['schemas']['LinkItem'];

/** The product lookups (barcode, shop link); they reach the internet through vision only. */
const lookupApi = api.injectEndpoints({
  endpoints: (build) => ({
    lookupBarcode: build.mutation<BarcodeProduct, string>({
      query: (code) => ({ ...apiRoute('POST', '/api/lookup/barcode'), body: { code } }),
    }),
    /** Stores the product's picture as the caller's upload and answers our /media/ URL. */
    storeProductImage: build.mutation<{ imageUrl: string }, string>({
      query: (code) => ({ ...apiRoute('POST', '/api/lookup/barcode/image'), body: { code } }),
    }),
    importLink: build.mutation<LinkItem, string>({
      query: (url) => ({ ...apiRoute('POST', '/api/lookup/url'), body: { url } }),
    }),
  }),
});

export const { useLookupBarcodeMutation, useStoreProductImageMutation, useImportLinkMutation } = lookupApi;

/** The HTTP status of an RTK Query error, if it has one. */
export function statusOf(err: unknown): number | null {
  if (err && typeof err === 'object' && 'status' in err && typeof err.status === 'number') return err.status;
  return null;
}
