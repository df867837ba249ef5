import { createContext, useContext, type ReactNode } from 'react';
import type { AddItemValues } from './validation';

/** The add form's fields an import may fill; '' clears a field (shoppingUrl: back to a shop search). */
export type ImportedFields = Partial<Pick<AddItemValues, 'name' | 'description' | 'category' | 'price' | 'searchQuery' | 'imageUrl'>> & {
  shoppingUrl?: string;
};

export interface AddFormImportProps {
  onFill: (fields: ImportedFields) => void;
}

/**
 * The add form offers "Paste a shop link" (and takes a shared page or a scanned code) without
 * knowing the product lookup: the app provides its component here (features/product-lookup).
 */
export type RenderAddFormImport = (props: AddFormImportProps) => ReactNode;

const AddFormImportContext = createContext<RenderAddFormImport | null>(null);

export const AddFormImportProvider = AddFormImportContext.Provider;

export function useAddFormImport(): RenderAddFormImport | null {
  return useContext(AddFormImportContext);
}
