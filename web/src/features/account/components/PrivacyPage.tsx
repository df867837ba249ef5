import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePageTitle } from '../../../lib/usePageTitle';
import './account.css';

/** /privacy: how long photos are kept and who sees them. Open to everyone. */
export default function PrivacyPage() {
  const { t } = useTranslation('account');
  usePageTitle(t('privacy.title'));
  const points = t('privacy.points', { returnObjects: true }) as string[];
  return (
    <div className="account-page">
      <section className="account-card" aria-labelledby="privacy-title">
        <h1 id="privacy-title">{t('privacy.title')}</h1>
        <p>{t('privacy.intro')}</p>
        <ul>
          {points.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
        <Link to="/account" className="button button--primary">
          {t('privacy.account')}
        </Link>
      </section>
    </div>
  );
}
