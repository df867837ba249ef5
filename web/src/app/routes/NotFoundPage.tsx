import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AlertIcon } from '../../components/icons';
import { usePageTitle } from '../../lib/usePageTitle';

/** Any path the router does not know. */
export default function NotFoundPage() {
  const { t } = useTranslation('common');
  usePageTitle(t('notFound.title'), true);
  return (
    <section className="page page--narrow" aria-labelledby="not-found-title">
      <div className="card empty-state">
        <span className="empty-state__icon">
          <AlertIcon size={48} />
        </span>
        <h1 id="not-found-title" className="page__title">
          {t('notFound.title')}
        </h1>
        <p>{t('notFound.text')}</p>
        <Link to="/" className="button button--primary">
          {t('notFound.back')}
        </Link>
      </div>
    </section>
  );
}
