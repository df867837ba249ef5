import { Link } from 'react-router';
import { Snowfall } from '../../../components/Snowfall';
import type { CurrentUser } from '../../../lib/session';
import './home.css';

/** The call-to-action card: log in when signed out, go to the wishlist when signed in (10 flakes). */
export function AccountCard({ user, loading }: { user: CurrentUser | null; loading: boolean }) {
  if (loading) return <div className="card cta-card cta-card--placeholder" aria-hidden="true" />;
  return (
    <section className="card cta-card" aria-labelledby="cta-title">
      <Snowfall count={10} />
      {user ? (
        <>
          <h2 id="cta-title" className="cta-card__title">
            Welcome Back to Your Wishlist!
          </h2>
          <p className="cta-card__text">See what you have wished for and add more before the big day.</p>
          <Link to="/wishlist" className="button button--light">
            Go to My Wishlist
          </Link>
        </>
      ) : (
        <>
          <h2 id="cta-title" className="cta-card__title">
            Log in to Save Your Wishlist!
          </h2>
          <p className="cta-card__text">Keep your gift ideas on every device and send them to Santa.</p>
          <Link to="/firebase-login" className="button button--light">
            Log In
          </Link>
        </>
      )}
    </section>
  );
}
