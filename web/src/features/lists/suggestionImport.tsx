import { createContext, useContext, type ReactNode } from 'react';

/** What a shop-link import may fill in the suggestion form ('' clears a field). */
export type SuggestionImportFields = Partial<
  Record<'name' | 'description' | 'category' | 'price' | 'searchQuery' | 'imageUrl' | 'shoppingUrl', string>
>;

export interface SuggestionImportProps {
  onFill: (fields: SuggestionImportFields) => void;
}

/**
 * "Paste a shop link" in the suggestion form, without this feature knowing the product lookup:
 * the app provides the lookup's component here (app/FeatureBridges), as it does for the add form.
 */
export type RenderSuggestionImport = (props: SuggestionImportProps) => ReactNode;

const SuggestionImportContext = createContext<RenderSuggestionImport | null>(null);

export const SuggestionImportProvider = SuggestionImportContext.Provider;

export function useSuggestionImport(): RenderSuggestionImport | null {
  return useContext(SuggestionImportContext);
}
