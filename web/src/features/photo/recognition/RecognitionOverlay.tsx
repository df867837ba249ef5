import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { BusyButton } from '../../../components/BusyButton';
import { Dialog } from '../../../components/Dialog';
import { CloseIcon } from '../../../components/icons';
import { Spinner } from '../../../components/Spinner';
import { useToast } from '../../../app/shell/notices';
import { errorMessage } from '../../../lib/apiError';
import { useFormat } from '../../../lib/format';
import { uuid } from '../../../lib/ids';
import { storeCapturedImage } from '../flow';
import { selectCurrentUser } from '../../../lib/session';
import { LoginToSaveDialog } from '../gift/LoginToSaveDialog';
import { useSaveItem } from '../saveItem';
import { analysisToWishlistItem, fallbackAnalysis, withAnalysisDefaults } from './analysis';
import { useAnalyzeImageMutation, type ProductAnalysis } from './api';
import './recognition.css';

interface Props {
  /** The captured photo (JPEG data URL). */
  image: string;
}

type AddState = 'idle' | 'pending' | 'added';

const ADDED_PAUSE_MS = 700;

/**
 * The 'Product Recognition' overlay that opens after a photo (docs/spec.md, section 2 'Camera' and
 * section 4 'Photo flow'): analyse the photo with the AI, add the result to the wishlist, or close
 * it to decorate the photo in the sticker editor.
 */
export function RecognitionOverlay({ image }: Props) {
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useTranslation('photo');
  const user = useAppSelector(selectCurrentUser);
  const [analyze, { isLoading: analyzing }] = useAnalyzeImageMutation();
  const saveItem = useSaveItem();
  const [result, setResult] = useState<ProductAnalysis | null>(null);
  const [addState, setAddState] = useState<AddState>('idle');
  const [loginOpen, setLoginOpen] = useState(false);

  function close() {
    storeCapturedImage(image);
    navigate('/edit-photo');
  }

  async function runAnalysis() {
    if (!image || analyzing) return;
    try {
      const answer = withAnalysisDefaults(await analyze({ image }).unwrap());
      setResult(answer);
      toast({ title: t('recognition.complete'), description: t('recognition.identified', { name: answer.name }) });
    } catch (err) {
      const message = errorMessage(err, t('recognition.failedFallback'));
      toast({ title: t('recognition.failed'), description: message, variant: 'destructive' });
      setResult(fallbackAnalysis(message));
    }
  }

  async function addToList() {
    if (!result || addState !== 'idle') return;
    if (!user) {
      // Kept here until the visitor logs in and comes back to the editor.
      storeCapturedImage(image);
      setLoginOpen(true);
      return;
    }
    setAddState('pending');
    try {
      await saveItem(analysisToWishlistItem(result, image), uuid());
      setAddState('added');
      toast({ title: t('common.success'), description: t('common.addedToWishlist') });
      // Long enough to read 'Added' on the button before the wishlist opens.
      setTimeout(() => navigate('/wishlist'), ADDED_PAUSE_MS);
    } catch (err) {
      setAddState('idle');
      toast({
        title: t('common.error'),
        description: t('common.addToWishlistFailed', { message: errorMessage(err) }),
        variant: 'destructive',
      });
    }
  }

  if (loginOpen) return <LoginToSaveDialog onCancel={() => setLoginOpen(false)} />;

  return (
    <div className="recognition-overlay" data-testid="recognition-overlay">
      <Dialog
        title={t('recognition.title')}
        onClose={close}
        actions={
          <>
            {!result && (
              <BusyButton
                className="button button--primary button--block"
                onClick={() => void runAnalysis()}
                busy={analyzing}
                busyLabel={t('recognition.analyzing')}
                busyText={t('recognition.analyzingText')}
              >
                {t('recognition.analyze')}
              </BusyButton>
            )}
            {result && (
              <button
                type="button"
                className="button button--primary button--block"
                onClick={() => void addToList()}
                disabled={addState !== 'idle'}
                aria-busy={addState === 'pending'}
              >
                {addState === 'pending' && <Spinner size="small" label={t('common.adding')} />}
                {addState === 'added' ? t('recognition.added') : addState === 'pending' ? t('recognition.addingText') : t('recognition.addToList')}
              </button>
            )}
            <button type="button" className="button button--outline button--block" onClick={close}>
              {t('recognition.decorate')}
            </button>
          </>
        }
      >
        <button type="button" className="recognition__close" aria-label={t('recognition.close')} onClick={close}>
          <CloseIcon size={20} />
        </button>
        <img className="recognition__photo" src={image} alt={t('recognition.photo')} />
        {!result && !analyzing && <p className="muted">{t('recognition.intro')}</p>}
        {analyzing && <p className="muted">{t('recognition.identifying')}</p>}
        {result && <AnalysisResult result={result} />}
      </Dialog>
    </div>
  );
}

function AnalysisResult({ result }: { result: ProductAnalysis }) {
  const { t } = useTranslation('photo');
  const format = useFormat();
  return (
    <section className="recognition__result" aria-label={t('recognition.result')} data-testid="analysis-result">
      <h3 className="recognition__name">{result.name}</h3>
      <p>{result.description}</p>
      <dl className="recognition__facts">
        <dt>{t('recognition.category')}</dt>
        <dd>{result.category}</dd>
        <dt>{t('recognition.price')}</dt>
        <dd>{result.approximatePrice ? format.price(result.approximatePrice) : t('recognition.unknown')}</dd>
      </dl>
      {result.features.length > 0 && (
        <>
          <h4 className="recognition__features-title">{t('recognition.features')}</h4>
          <ul className="recognition__features">
            {result.features.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
