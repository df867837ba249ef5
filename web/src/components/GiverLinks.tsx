import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FamilyIcon, GiftIcon } from './icons';
import './GiverLinks.css';

/**
 * One tap to what a relative comes for: the family's lists (with how many gifts are still to buy
 * on each) and what they promised to buy. On home and the wishlist, for everyone signed in.
 */
export function GiverLinks() {
  const { t } = useTranslation('common');
  return (
    <nav className="giver-links" aria-label={t('giverLinks.label')}>
      <Link to="/family" className="giver-links__link" data-testid="giver-family">
        <FamilyIcon size={22} />
        <span>{t('giverLinks.family')}</span>
      </Link>
      <Link to="/claims" className="giver-links__link" data-testid="giver-claims">
        <GiftIcon size={22} />
        <span>{t('giverLinks.claims')}</span>
      </Link>
    </nav>
  );
}
