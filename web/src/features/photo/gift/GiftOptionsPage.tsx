import { useTranslation } from 'react-i18next';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { ArrowLeftIcon, CartIcon, GiftIcon, PlusIcon } from '../../../components/icons';
import { Spinner } from '../../../components/Spinner';
import { SANTA_ANIMATION_MS, useShellNotices, useToast } from '../../../app/shell/notices';
import { errorMessage } from '../../../lib/apiError';
import { uuid } from '../../../lib/ids';
import { readEditedImage, readGiftDetails } from '../flow';
import { openInNewTab, shopSearchUrl } from '../../../lib/shop';
import { playSound } from '../../../lib/sounds';
import { usePageTitle } from '../../../lib/usePageTitle';
import { useFormat } from '../../../lib/format';
import { selectCurrentUser } from '../../../lib/session';
import { noteSantaRequestSentHere } from '../../../lib/santaEcho';
import { useSaveItem } from '../saveItem';
import { useSendToSantaMutation } from './api';
import { LoginToSaveDialog } from './LoginToSaveDialog';
import './gift.css';

type SaveState = 'idle' | 'saving' | 'saved';

/** /gift-options (docs/spec.md, section 2 'Gift options'). */
export default function GiftOptionsPage() {
  const { t } = useTranslation('photo');
  const format = useFormat();
  usePageTitle(t('gift.title'));
  const [image] = useState(readEditedImage);
  const [gift] = useState(readGiftDetails);
  const navigate = useNavigate();
  const toast = useToast();
  const user = useAppSelector(selectCurrentUser);
  const notices = useShellNotices();
  const saveItem = useSaveItem();
  const [sendToSanta] = useSendToSantaMutation();
  const [saveState, setSaveState] = useState<SaveState>('idle');
  const [sending, setSending] = useState(false);
  const [loginOpen, setLoginOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  if (!image) return <Navigate to="/edit-photo" replace />;
  const imageUrl = image;

  async function onSendToSanta() {
    if (sending) return;
    setSending(true);
    playSound('sendSound');
    notices.showSanta();
    const animation = new Promise<void>((resolve) => {
      timer.current = setTimeout(resolve, SANTA_ANIMATION_MS);
    });
    if (!user) {
      await animation;
      setSending(false);
      setLoginOpen(true);
      return;
    }
    noteSantaRequestSentHere();
    const request = sendToSanta({
      name: gift.name,
      description: gift.description,
      price: gift.price,
      imageUrl,
      idempotencyKey: uuid(),
    }).unwrap();
    try {
      await Promise.all([request, animation]);
      navigate('/confirmation');
    } catch (err) {
      await animation;
      setSending(false);
      toast({ title: t('common.error'), description: t('gift.sendFailed', { message: errorMessage(err) }), variant: 'destructive' });
    }
  }

  async function onAddToWishlist() {
    if (saveState !== 'idle') return;
    if (!user) {
      setLoginOpen(true);
      return;
    }
    setSaveState('saving');
    try {
      await saveItem({ name: gift.name, description: gift.description, price: gift.price, imageUrl }, uuid());
      setSaveState('saved');
      notices.showMessage(t('gift.added'));
    } catch (err) {
      setSaveState('idle');
      toast({ title: t('common.error'), description: t('common.addToWishlistFailed', { message: errorMessage(err) }), variant: 'destructive' });
    }
  }

  return (
    <section className="page gift-page" aria-labelledby="gift-title">
      <div className="gift-bar">
        <Link to="/edit-photo" className="button button--outline button--small">
          <ArrowLeftIcon size={18} /> {t('common.back')}
        </Link>
        <h1 id="gift-title" className="gift-bar__title">
          {t('gift.title')}
        </h1>
      </div>

      <article className="card gift-card" data-testid="gift-card">
        <div className="gift-card__media">
          <img src={imageUrl} alt={t('gift.photoOf', { name: gift.name })} />
          {gift.aiEnhanced && <span className="gift-card__badge">{t('gift.aiEnhanced')}</span>}
        </div>
        <h2 className="gift-card__name" data-testid="gift-name">
          {gift.name}
        </h2>
        <p className="gift-card__description">{gift.description}</p>
        <p className="gift-card__price" data-testid="gift-price">
          {format.price(gift.price)}
        </p>
      </article>

      <div className="gift-actions">
        <button type="button" className="button button--primary button--block gift-actions__santa" onClick={() => void onSendToSanta()} disabled={sending}>
          <GiftIcon size={20} /> {sending ? t('gift.sending') : t('gift.send')}
        </button>
        <button
          type="button"
          className="button button--outline button--block"
          onClick={() => void onAddToWishlist()}
          disabled={saveState !== 'idle'}
          aria-busy={saveState === 'saving'}
        >
          {saveState === 'saving' ? <Spinner size="small" label={t('common.adding')} /> : <PlusIcon size={20} />}
          {saveState === 'saved' ? t('gift.added') : saveState === 'saving' ? t('gift.addingText') : t('gift.add')}
        </button>
        <Link to="/share-options" className="button button--outline button--block">
          {t('gift.share')}
        </Link>
        <button type="button" className="button button--link" onClick={() => openInNewTab(shopSearchUrl(gift.name))}>
          <CartIcon size={18} /> {t('gift.viewInShop')}
          <span className="visually-hidden">{t('common.opensInNewTab')}</span>
        </button>
      </div>

      {loginOpen && <LoginToSaveDialog onCancel={() => setLoginOpen(false)} />}
    </section>
  );
}
