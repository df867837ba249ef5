import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { useToast } from '../../../app/shell/notices';
import { Dialog } from '../../../components/Dialog';
import { CloseIcon } from '../../../components/icons';
import { Spinner } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/apiError';
import { uuid } from '../../../lib/ids';
import { rememberRedirectAfterLogin } from '../../../lib/redirectAfterLogin';
import { selectCurrentUser } from '../../../lib/session';
import type { NewWishlistItem } from '../../../lib/wishlistItem';
import { useScannedProduct } from '../hooks/useScannedProduct';
import { productDescription } from '../link';
import '../productLookup.css';

export interface ScannedProductOverlayProps {
  /** The code as scanned. */
  code: string;
  /** The camera frame the code was read in (shown until the product's own picture is there). */
  frame: string;
  /** Goes on to the sticker editor with this photo; the product's name becomes the scanned item's. */
  onDecorate: (productName?: string) => void;
  /** Saves to the signed-in user's wishlist (the app passes the wishlist's own mutation). */
  save: (item: NewWishlistItem, idempotencyKey: string) => Promise<unknown>;
}

const ADDED_PAUSE_MS = 700;

/**
 * The Product Recognition overlay after a barcode scan: the product the databases know (its
 * picture, name, brand, category) to add or decorate, or plainly that the code is unknown,
 * with the text form (the code kept) or the editor.
 */
export default function ScannedProductOverlay({ code, frame, onDecorate, save }: ScannedProductOverlayProps) {
  const { t } = useTranslation('product-lookup');
  const navigate = useNavigate();
  const toast = useToast();
  const user = useAppSelector(selectCurrentUser);
  const { state, image, imageReady } = useScannedProduct(code, !!user);
  const [adding, setAdding] = useState<'idle' | 'pending' | 'added'>('idle');
  const product = state.status === 'found' ? state.product : null;
  const decorate = () => onDecorate(product?.name);

  async function add() {
    if (!product || adding !== 'idle') return;
    if (!user) {
      rememberRedirectAfterLogin('/camera?mode=scan');
      navigate('/firebase-login');
      return;
    }
    setAdding('pending');
    try {
      const imageUrl = await imageReady();
      await save(
        {
          name: product.name,
          description: productDescription(product, (p, withBrand) =>
            t(withBrand ? 'overlay.descriptionBy' : 'overlay.descriptionPlain', { name: p.name, brand: p.brand, code: p.code }),
          ),
          category: product.category,
          price: product.price ?? null,
          imageUrl: imageUrl || null,
          searchQuery: product.name,
          features: [],
          aiGenerated: false,
          sentToSanta: false,
        },
        uuid(),
      );
      setAdding('added');
      toast({ title: t('overlay.success'), description: t('overlay.successText') });
      setTimeout(() => navigate('/wishlist'), ADDED_PAUSE_MS);
    } catch (err) {
      setAdding('idle');
      toast({ title: t('overlay.error'), description: t('overlay.errorText', { message: errorMessage(err) }), variant: 'destructive' });
    }
  }

  const picture = image.status === 'stored' ? image.imageUrl : frame;
  const describeByHand = () => navigate(`/text-prompt?barcode=${encodeURIComponent(code)}`);

  return (
    <div className="product-lookup__overlay" data-testid="scanned-product">
      <Dialog
        title={t('overlay.title')}
        onClose={decorate}
        actions={
          <>
            {product && (
              <button
                type="button"
                className="button button--primary button--block"
                onClick={() => void add()}
                disabled={adding !== 'idle'}
                aria-busy={adding === 'pending'}
              >
                {adding === 'pending' && <Spinner size="small" label={t('overlay.addingLabel')} />}
                {adding === 'added'
                  ? t('overlay.added')
                  : adding === 'pending'
                    ? t('overlay.adding')
                    : user
                      ? t('overlay.add')
                      : t('overlay.logInToAdd')}
              </button>
            )}
            {(state.status === 'unknown' || state.status === 'failed') && (
              <button type="button" className="button button--primary button--block" onClick={describeByHand}>
                {t('overlay.describe')}
              </button>
            )}
            <button type="button" className="button button--outline button--block" onClick={decorate}>
              {t('overlay.decorate')}
            </button>
          </>
        }
      >
        <button type="button" className="product-lookup__close" aria-label={t('overlay.close')} onClick={decorate}>
          <CloseIcon size={20} />
        </button>
        <img
          className="product-lookup__photo"
          src={picture}
          alt={product ? t('overlay.photoOf', { name: product.name }) : t('overlay.photoOfBarcode')}
          data-testid="scanned-product-photo"
        />
        <p className="product-lookup__code muted">{t('overlay.barcode', { code })}</p>
        {state.status === 'loading' && (
          <p className="muted" role="status">
            <Spinner size="small" label={t('overlay.lookingUpLabel')} /> {t('overlay.lookingUp')}
          </p>
        )}
        {product && (
          <section className="product-lookup__result" aria-label={t('overlay.found')}>
            <h3 className="product-lookup__name">{product.name}</h3>
            <dl className="product-lookup__facts">
              {product.brand && (
                <>
                  <dt>{t('overlay.brand')}</dt>
                  <dd>{product.brand}</dd>
                </>
              )}
              <dt>{t('overlay.category')}</dt>
              <dd>{product.category}</dd>
              {product.price && (
                <>
                  <dt>{t('overlay.price')}</dt>
                  <dd>{product.price}</dd>
                </>
              )}
            </dl>
            {image.status === 'storing' && <p className="muted">{t('overlay.savingPicture')}</p>}
          </section>
        )}
        {state.status === 'unknown' && (
          <p role="status" data-testid="product-unknown">
            {t('overlay.unknown', { code })}
          </p>
        )}
        {state.status === 'failed' && (
          <p role="alert">
            {state.message} {t('overlay.failedHint')}
          </p>
        )}
      </Dialog>
    </div>
  );
}
