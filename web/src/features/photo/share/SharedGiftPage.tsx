import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { CartIcon, GiftIcon } from '../../../components/icons';
import { openInNewTab, shopSearchUrl } from '../../../lib/shop';
import { usePageTitle } from '../../../lib/usePageTitle';
import { nameFromSlug } from './shareLinks';
import './share.css';

/** /share/:slug: what a friend sees when they open a shared gift link. */
export default function SharedGiftPage() {
  const { slug = '' } = useParams();
  const { t } = useTranslation('photo');
  const name = nameFromSlug(slug) || t('shared.fallbackName');
  usePageTitle(t('shared.title', { name }));
  return (
    <section className="page page--narrow" aria-labelledby="shared-title">
      <div className="card empty-state">
        <span className="empty-state__icon" aria-hidden="true">
          <GiftIcon size={44} />
        </span>
        <p className="muted">{t('shared.lead')}</p>
        <h1 id="shared-title" className="page__title">
          {name}
        </h1>
        <p>{t('shared.text')}</p>
        <div className="button-row button-row--center">
          <button type="button" className="button button--primary" onClick={() => openInNewTab(shopSearchUrl(name))}>
            <CartIcon size={18} /> {t('shared.findInShop')}
            <span className="visually-hidden">{t('common.opensInNewTab')}</span>
          </button>
          <Link to="/" className="button button--outline">
            {t('shared.start')}
          </Link>
        </div>
      </div>
    </section>
  );
}
