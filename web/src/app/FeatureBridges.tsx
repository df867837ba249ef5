import { lazy, Suspense, useCallback, type ReactNode } from 'react';
import { SaveItemProvider, type SaveItem } from '../features/photo/saveItem';
import { ScanLookupProvider, type ScanLookupProps } from '../features/photo/scanLookup';
import { AddFormImportProvider, type AddFormImportProps } from '../features/wishlist/addFormImport';
import { SuggestionImportProvider, type SuggestionImportProps } from '../features/lists/suggestionImport';
import { useAddWishlistItemMutation } from '../features/wishlist/api';
import { lazyWithTexts } from '../lib/i18n';

// The product lookup's screens load with the first scan or add form that shows them.
const ScannedProductOverlay = lazy(() => lazyWithTexts(() => import('../features/product-lookup/components/ScannedProductOverlay')));
const LinkImport = lazy(() => lazyWithTexts(() => import('../features/product-lookup/components/LinkImport')));

/** A scan shows the product it names (features/product-lookup), saved with the wishlist's mutation. */
function ScannedProduct(props: ScanLookupProps) {
  const [addItem] = useAddWishlistItemMutation();
  const save = useCallback<SaveItem>((item, idempotencyKey) => addItem({ ...item, idempotencyKey }).unwrap(), [addItem]);
  return (
    <Suspense fallback={null}>
      <ScannedProductOverlay {...props} save={save} />
    </Suspense>
  );
}

const renderScanned = (props: ScanLookupProps) => <ScannedProduct {...props} />;

/** The add form's "Paste a shop link" (features/product-lookup). */
function AddFormImport(props: AddFormImportProps) {
  return (
    <Suspense fallback={null}>
      <LinkImport {...props} />
    </Suspense>
  );
}

const renderImport = (props: AddFormImportProps) => <AddFormImport {...props} />;

/** The same "Paste a shop link" in a giver's "Suggest a gift" form (features/lists). */
function SuggestionImport(props: SuggestionImportProps) {
  return (
    <Suspense fallback={null}>
      <LinkImport {...props} />
    </Suspense>
  );
}

const renderSuggestionImport = (props: SuggestionImportProps) => <SuggestionImport {...props} />;

/**
 * Where features that must not import each other are connected: the photo flow saves with the
 * wishlist's mutation; the camera, the add form and the suggestion form show the product lookup's
 * components.
 */
export function FeatureBridges({ children }: { children: ReactNode }) {
  const [addItem] = useAddWishlistItemMutation();
  const save = useCallback<SaveItem>((item, idempotencyKey) => addItem({ ...item, idempotencyKey }).unwrap(), [addItem]);
  return (
    <SaveItemProvider value={save}>
      <ScanLookupProvider value={renderScanned}>
        <AddFormImportProvider value={renderImport}>
          <SuggestionImportProvider value={renderSuggestionImport}>{children}</SuggestionImportProvider>
        </AddFormImportProvider>
      </ScanLookupProvider>
    </SaveItemProvider>
  );
}
