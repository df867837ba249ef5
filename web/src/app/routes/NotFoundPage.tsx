import { Link } from 'react-router';
import { AlertIcon } from '../../components/icons';
import { usePageTitle } from '../../lib/usePageTitle';

/** Any path the router does not know. */
export default function NotFoundPage() {
  usePageTitle('404 Page Not Found', true);
  return (
    <section className="page page--narrow" aria-labelledby="not-found-title">
      <div className="card empty-state">
        <span className="empty-state__icon">
          <AlertIcon size={48} />
        </span>
        <h1 id="not-found-title" className="page__title">
          404 Page Not Found
        </h1>
        <p>Did you forget to add the page to the router?</p>
        <Link to="/" className="button button--primary">
          Back to Home
        </Link>
      </div>
    </section>
  );
}
