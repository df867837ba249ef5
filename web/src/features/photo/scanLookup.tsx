import { createContext, useContext, type ReactNode } from 'react';

/** What the camera hands the scanned-product view: the code, its frame, and the way on to the editor. */
export interface ScanLookupProps {
  code: string;
  frame: string;
  /** Opens the sticker editor on the frame; a known product's name becomes the scanned item's. */
  onDecorate: (productName?: string) => void;
}

/**
 * The photo flow shows what a scanned code names without knowing the product lookup: the app
 * provides its overlay here (features/product-lookup). Without one, a scan goes straight to
 * the editor as before.
 */
export type RenderScanLookup = (props: ScanLookupProps) => ReactNode;

const ScanLookupContext = createContext<RenderScanLookup | null>(null);

export const ScanLookupProvider = ScanLookupContext.Provider;

export function useScanLookupView(): RenderScanLookup | null {
  return useContext(ScanLookupContext);
}
