import { Link, useParams } from 'react-router';
import { CartIcon, GiftIcon } from '../../../components/icons';
import { openInNewTab, shopSearchUrl } from '../../../lib/shop';
import { usePageTitle } from '../../../lib/usePageTitle';
import { nameFromSlug } from './shareLinks';
import './share.css';

/** /share/:slug: what a friend sees when they open a shared gift link. */
export default function SharedGiftPage() {
  const { slug = '' } = useParams();
  const name = nameFromSlug(slug) || 'A gift idea';
  usePageTitle(`${name}: a Christmas wish`);
  return (
    <section className="page page--narrow" aria-labelledby="shared-title">
      <div className="card empty-state">
        <span className="empty-state__icon" aria-hidden="true">
          <GiftIcon size={44} />
        </span>
        <p className="muted">Someone would really love this for Christmas</p>
        <h1 id="shared-title" className="page__title">
          {name}
        </h1>
        <p>It is on their Santa Wishlist. You could find it in a shop, or start a wishlist of your own.</p>
        <div className="button-row button-row--center">
          <button type="button" className="button button--primary" onClick={() => openInNewTab(shopSearchUrl(name))}>
            <CartIcon size={18} /> Find it in a shop
            <span className="visually-hidden"> (opens in a new tab)</span>
          </button>
          <Link to="/" className="button button--outline">
            Start my wishlist
          </Link>
        </div>
      </div>
    </section>
  );
}
