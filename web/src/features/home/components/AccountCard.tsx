import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Snowfall } from '../../../components/Snowfall';
import type { CurrentUser } from '../../../lib/session';
import './home.css';

/** The call-to-action card: log in when signed out, go to the wishlist when signed in (10 flakes). */
export function AccountCard({ user, loading }: { user: CurrentUser | null; loading: boolean }) {
  const { t } = useTranslation('home');
  if (loading) return <div className="card cta-card cta-card--placeholder" aria-hidden="true" />;
  return (
    <section className="card cta-card" aria-labelledby="cta-title">
      <Snowfall count={10} />
      {user ? (
        <>
          <h2 id="cta-title" className="cta-card__title">
            {t('account.welcome')}
          </h2>
          <p className="cta-card__text">{t('account.welcomeText')}</p>
          <Link to="/wishlist" className="button button--light">
            {t('account.goToWishlist')}
          </Link>
        </>
      ) : (
        <>
          <h2 id="cta-title" className="cta-card__title">
            {t('account.logInTitle')}
          </h2>
          <p className="cta-card__text">{t('account.logInText')}</p>
          <Link to="/firebase-login" className="button button--light">
            {t('account.logIn')}
          </Link>
        </>
      )}
    </section>
  );
}
