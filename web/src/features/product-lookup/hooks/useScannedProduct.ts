import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/apiError';
import { statusOf, useLookupBarcodeMutation, useStoreProductImageMutation, type BarcodeProduct } from '../api';

export type ScannedProductState =
  | { status: 'loading' }
  | { status: 'found'; product: BarcodeProduct }
  | { status: 'unknown' }
  | { status: 'failed'; message: string };

/** Our copy of the product's picture: stored through media for a signed-in user, never hot-linked. */
export type ProductImageState = { status: 'none' | 'storing' | 'failed' } | { status: 'stored'; imageUrl: string };

/**
 * Looks a scanned code up once, and for a signed-in user stores the product's picture as
 * theirs (so the item saved from it carries our /media/ URL). `imageReady` resolves to that
 * URL, or '' when there is none, for the save that may come before the picture is stored.
 */
export function useScannedProduct(code: string, signedIn: boolean) {
  const { t } = useTranslation('product-lookup');
  const failedWords = useRef(t('overlay.lookupFailed'));
  failedWords.current = t('overlay.lookupFailed');
  const [lookup] = useLookupBarcodeMutation();
  const [storeImage] = useStoreProductImageMutation();
  const [state, setState] = useState<ScannedProductState>({ status: 'loading' });
  const [image, setImage] = useState<ProductImageState>({ status: 'none' });
  const imageReady = useRef<Promise<string>>(Promise.resolve(''));

  useEffect(() => {
    let cancelled = false;
    setState({ status: 'loading' });
    setImage({ status: 'none' });
    imageReady.current = Promise.resolve('');
    void (async () => {
      let product: BarcodeProduct;
      try {
        product = await lookup(code).unwrap();
      } catch (err) {
        if (cancelled) return;
        if (statusOf(err) === 404) setState({ status: 'unknown' });
        else setState({ status: 'failed', message: errorMessage(err, failedWords.current) });
        return;
      }
      if (cancelled) return;
      setState({ status: 'found', product });
      if (!signedIn || !product.imageUrl) return;
      setImage({ status: 'storing' });
      const stored = storeImage(code)
        .unwrap()
        .then((r) => r.imageUrl)
        .catch(() => '');
      imageReady.current = stored;
      const url = await stored;
      if (!cancelled) setImage(url ? { status: 'stored', imageUrl: url } : { status: 'failed' });
    })();
    return () => {
      cancelled = true;
    };
  }, [code, signedIn, lookup, storeImage]);

  return { state, image, imageReady: () => imageReady.current };
}
