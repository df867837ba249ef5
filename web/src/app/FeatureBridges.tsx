import { lazy, Suspense, useCallback, type ReactNode } from 'react';
import { SaveItemProvider, type SaveItem } from '../features/photo/saveItem';
import { ScanLookupProvider, type ScanLookupProps } from '../features/photo/scanLookup';
import { AddFormImportProvider, type AddFormImportProps } from '../features/wishlist/addFormImport';
import { SuggestionImportProvider, type SuggestionImportProps } from '../features/lists/suggestionImport';
import {
  SharedItemGivingProvider,
  ShoppingListGivingProvider,
  type SharedItemGivingProps,
  type ShoppingListGiving,
} from '../features/lists/givingSlots';
import { useAddWishlistItemMutation } from '../features/wishlist/api';
import { lazyWithTexts } from '../lib/i18n';

// The product lookup's screens load with the first scan or add form that shows them.
const ScannedProductOverlay = lazy(() => lazyWithTexts(() => import('../features/product-lookup/components/ScannedProductOverlay')));
const LinkImport = lazy(() => lazyWithTexts(() => import('../features/product-lookup/components/LinkImport')));
// Giving together's parts load with the shared list or the shopping list that shows them.
const GroupGiftPanel = lazy(() =>
  lazyWithTexts(() => import('../features/giving/components/GroupGiftPanel')).then((m) => ({ default: m.GroupGiftPanel })),
);
const PersonBudget = lazy(() =>
  lazyWithTexts(() => import('../features/giving/components/PersonBudget')).then((m) => ({ default: m.PersonBudget })),
);
const OtherBudgets = lazy(() =>
  lazyWithTexts(() => import('../features/giving/components/PersonBudget')).then((m) => ({ default: m.OtherBudgets })),
);
const PledgeLine = lazy(() => lazyWithTexts(() => import('../features/giving/components/PledgeLine')).then((m) => ({ default: m.PledgeLine })));
const GivenGiftsLink = lazy(() =>
  lazyWithTexts(() => import('../features/giving/components/GivenGiftsLink')).then((m) => ({ default: m.GivenGiftsLink })),
);

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

/** "Give together" on a giver's shared item (features/giving in features/lists). */
const renderSharedItemGiving = (props: SharedItemGivingProps) => (
  <Suspense fallback={null}>
    <GroupGiftPanel {...props} />
  </Suspense>
);

/** The shopping list's totals, budgets, pledges and "Gifts I gave" (features/giving in features/lists). */
const shoppingListGiving: ShoppingListGiving = {
  header: () => (
    <Suspense fallback={null}>
      <GivenGiftsLink />
    </Suspense>
  ),
  person: (recipient) => (
    <Suspense fallback={null}>
      <PersonBudget recipient={recipient} />
    </Suspense>
  ),
  entry: (entry) =>
    entry.pledge ? (
      <Suspense fallback={null}>
        <PledgeLine pledge={entry.pledge} />
      </Suspense>
    ) : null,
  footer: (shownKeys) => (
    <Suspense fallback={null}>
      <OtherBudgets shownKeys={shownKeys} />
    </Suspense>
  ),
};

/**
 * Where features that must not import each other are connected: the photo flow saves with the
 * wishlist's mutation; the camera, the add form and the suggestion form show the product lookup's
 * components; the shared list and the shopping list show giving together's.
 */
export function FeatureBridges({ children }: { children: ReactNode }) {
  const [addItem] = useAddWishlistItemMutation();
  const save = useCallback<SaveItem>((item, idempotencyKey) => addItem({ ...item, idempotencyKey }).unwrap(), [addItem]);
  return (
    <SaveItemProvider value={save}>
      <ScanLookupProvider value={renderScanned}>
        <AddFormImportProvider value={renderImport}>
          <SuggestionImportProvider value={renderSuggestionImport}>
            <SharedItemGivingProvider value={renderSharedItemGiving}>
              <ShoppingListGivingProvider value={shoppingListGiving}>{children}</ShoppingListGivingProvider>
            </SharedItemGivingProvider>
          </SuggestionImportProvider>
        </AddFormImportProvider>
      </ScanLookupProvider>
    </SaveItemProvider>
  );
}
