import { useTranslation } from 'react-i18next';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { ArrowLeftIcon } from '../../../components/icons';
import { useToast } from '../../../app/shell/notices';
import { dataUrlToFile } from '../../../lib/dataUrl';
import { readEditedImage, shareItemName } from '../flow';
import { usePageTitle } from '../../../lib/usePageTitle';
import { shareLink, shareSlug, shareTargets, shareText, type ShareTarget } from './shareLinks';
import './share.css';

/** /share-options (docs/spec.md, section 2 'Share options'), with real sharing. */
export default function ShareOptionsPage({ listLink }: { listLink?: ReactNode } = {}) {
  const { t } = useTranslation('photo');
  usePageTitle(t('share.title'));
  const [image] = useState(readEditedImage);
  const [name] = useState(shareItemName);
  const [message, setMessage] = useState(() => t('share.defaultMessage'));
  const [canNativeShare, setCanNativeShare] = useState(false);
  const toast = useToast();
  const messageId = useId();

  useEffect(() => {
    setCanNativeShare(typeof navigator.share === 'function');
  }, []);

  if (!image) return <Navigate to="/gift-options" replace />;
  const imageUrl = image;
  const link = shareLink(window.location.origin, name);
  const targets = shareTargets(message, name, link);

  async function copyLink() {
    try {
      if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
      await navigator.clipboard.writeText(link);
      toast({ title: t('share.copied'), description: t('share.copiedText') });
    } catch (err) {
      console.warn('copy failed', err);
      toast({ title: t('common.copyFailed'), description: t('share.copyFailedText'), variant: 'destructive' });
    }
  }

  async function nativeShare() {
    const data: ShareData = { title: name, text: shareText(message, name), url: link };
    try {
      const file = dataUrlToFile(imageUrl, `${shareSlug(name)}.jpg`);
      if (navigator.canShare?.({ files: [file] })) data.files = [file];
    } catch {
      /* share without the photo */
    }
    try {
      await navigator.share(data);
    } catch (err) {
      // Closing the share sheet is not an error worth a message.
      if (err instanceof DOMException && err.name === 'AbortError') return;
      toast({ title: t('share.failed'), description: t('share.failedText'), variant: 'destructive' });
    }
  }

  return (
    <section className="page page--narrow share-page" aria-labelledby="share-title">
      <div className="share-bar">
        <Link to="/gift-options" className="button button--outline button--small">
          <ArrowLeftIcon size={18} /> {t('common.back')}
        </Link>
        <h1 id="share-title" className="share-bar__title">
          {t('share.title')}
        </h1>
      </div>

      <article className="card share-card">
        <img className="share-card__image" src={imageUrl} alt={t('share.photoOf', { name })} />
        <h2 className="share-card__name" data-testid="share-name">
          {name}
        </h2>
        <p className="muted">{t('share.fromWishlist')}</p>
        <label className="field__label" htmlFor={messageId}>
          {t('share.message')}
        </label>
        <textarea
          id={messageId}
          className="textarea share-card__message"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          rows={2}
          maxLength={280}
        />
      </article>

      {canNativeShare && (
        <button type="button" className="button button--primary button--block" onClick={() => void nativeShare()}>
          {t('share.shareNative')}
        </button>
      )}

      <nav className="share-targets" aria-label={t('share.shareTo')}>
        {targets.map((target) => (
          <ShareTargetLink key={target.id} target={target} />
        ))}
      </nav>

      <div className="card share-link">
        <label className="field__label" htmlFor={`${messageId}-link`}>
          {t('share.link')}
        </label>
        <div className="share-link__row">
          <input id={`${messageId}-link`} className="input share-link__input" value={link} readOnly onFocus={(e) => e.target.select()} />
          <button type="button" className="button button--primary button--small" onClick={() => void copyLink()}>
            {t('share.copyLink')}
          </button>
        </div>
      </div>
      {/* The whole list's link, put here by the app (lists). */}
      {listLink}
    </section>
  );
}

function ShareTargetLink({ target }: { target: ShareTarget }) {
  const external = target.id !== 'sms';
  const { t } = useTranslation('photo');
  const label = target.id === 'sms' ? t('share.sms') : target.label;
  return (
    <a
      className={`share-target share-target--${target.id}`}
      href={target.href}
      target={external ? '_blank' : undefined}
      rel={external ? 'noopener noreferrer' : undefined}
      data-testid={`share-${target.id}`}
    >
      <span className="share-target__icon" aria-hidden="true">
        {label.charAt(0)}
      </span>
      <span>{label}</span>
      {external && <span className="visually-hidden">{t('common.opensInNewTab')}</span>}
    </a>
  );
}
