import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CurrentUser } from '../lib/session';
import { AvatarMenu } from './AvatarMenu';
import { BagIcon, SantaIcon } from './icons';
import './Header.css';

interface HeaderProps {
  user: CurrentUser | null;
  /** Before the first auth report: a placeholder instead of 'Log In'. */
  authPending: boolean;
  wishlistCount: number;
  onLogout: () => void;
}

/** The sticky Santa-red header: logo, wishlist bag with its count, avatar menu or Log In. */
export function Header({ user, authPending, wishlistCount: count, onLogout }: HeaderProps) {
  const { t } = useTranslation('common');
  const bagLabel = t('header.bag', { count });

  return (
    <header className="app-header">
      <div className="app-header__inner">
        <Link to="/" className="app-header__brand">
          <SantaIcon size={34} />
          <span>{t('app.name')}</span>
        </Link>
        <div className="app-header__actions">
          <Link to="/wishlist" className="icon-button app-header__bag" aria-label={bagLabel}>
            <BagIcon />
            {count > 0 && (
              <span className="badge" data-testid="wishlist-count" aria-hidden="true">
                {count > 99 ? '99+' : count}
              </span>
            )}
          </Link>
          {user ? (
            <AvatarMenu user={user} onLogout={onLogout} />
          ) : authPending ? (
            <span className="app-header__placeholder" aria-hidden="true" />
          ) : (
            <Link to="/firebase-login" className="button button--light button--small">
              {t('header.logIn')}
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}
