import { api } from '../../../app/api';
import type { RequestBody } from '../../../lib/api/operations';
import { apiRoute } from '../../../lib/api/paths';
import type { GeneratedEntry, GeneratedGift, ProductAnalysis } from '../../../lib/wishlistItem';

/** POST /api/vision/analyze's answer (api/openapi.yaml, generated). */
export type { ProductAnalysis };

/** POST /api/vision/analyze's JSON body: the photo as a data URL, and an optional prompt. */
export type AnalyzeRequest = RequestBody<'analyzeImage'>;

/** POST /api/vision/generate's body: the prompt, the mode, and the edited photo as a data URL. */
export type GenerateRequest = RequestBody<'generateItem'>;

/** POST /api/vision/generate's answer; `estimatedPrice` and `category` only in item mode. */
export type GeneratedItem = GeneratedGift & Partial<Pick<GeneratedEntry, 'estimatedPrice' | 'category'>>;

/**
 * The AI calls, made by the vision service (the Gemini key never reaches the browser). They
 * work signed out too; signed in, the base query adds the ID token and the per-user quota applies.
 */
export const visionApi = api.injectEndpoints({
  endpoints: (build) => ({
    analyzeImage: build.mutation<ProductAnalysis, AnalyzeRequest>({
      query: (body) => ({ ...apiRoute('POST', '/api/vision/analyze'), body }),
    }),
    generateItem: build.mutation<GeneratedItem, GenerateRequest>({
      query: (body) => ({ ...apiRoute('POST', '/api/vision/generate'), body }),
    }),
  }),
});

export const { useAnalyzeImageMutation, useGenerateItemMutation } = visionApi;
