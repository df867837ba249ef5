import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CategoryIcon } from '../../../components/CategoryIcon';
import { useFormat } from '../../../lib/format';
import { useGetRecentWishlistQuery } from '../api';
import './wishlist.css';

/** The signed-in user's latest wishes (GET /api/wishlist/recent, up to 5). */
export function RecentItems() {
  const { data: items, isLoading, isError } = useGetRecentWishlistQuery();
  const { t } = useTranslation('wishlist');
  const format = useFormat();
  if (isLoading || isError || !items || items.length === 0) return null;
  return (
    <section className="card recent" aria-labelledby="recent-title">
      <div className="recent__head">
        <h2 id="recent-title" className="section-title">
          {t('recent.title')}
        </h2>
        <Link to="/wishlist" className="button button--link">
          {t('recent.seeAll')}
        </Link>
      </div>
      <ul className="recent__list">
        {items.map((item) => (
          <li key={item.id} className="recent__item">
            <span className="recent__thumb">
              {item.imageUrl ? (
                <img src={item.imageUrl} alt="" loading="lazy" width={44} height={44} />
              ) : (
                <CategoryIcon category={item.category} />
              )}
            </span>
            <span className="recent__name">{item.name}</span>
            {item.price && <span className="recent__price">{format.price(item.price)}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
