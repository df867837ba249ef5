import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { CameraIcon, HomeIcon, ListIcon } from './icons';
import './BottomNav.css';

const ITEMS = [
  { to: '/', label: 'nav.home', Icon: HomeIcon, matches: (p: string) => p === '/' },
  { to: '/camera', label: 'nav.camera', Icon: CameraIcon, matches: (p: string) => p === '/camera' || p === '/scan' },
  { to: '/wishlist', label: 'nav.wishlist', Icon: ListIcon, matches: (p: string) => p === '/wishlist' },
] as const;

/** Three entries: Home, Camera (also highlighted on /scan), Wishlist. */
export function BottomNav() {
  const { pathname } = useLocation();
  const { t } = useTranslation('common');
  return (
    <nav className="bottom-nav" aria-label={t('nav.main')}>
      <ul className="bottom-nav__list">
        {ITEMS.map(({ to, label, Icon, matches }) => {
          const active = matches(pathname);
          return (
            <li key={to}>
              <Link
                to={to}
                className={`bottom-nav__link${active ? ' bottom-nav__link--active' : ''}`}
                aria-current={active ? 'page' : undefined}
              >
                <Icon />
                <span>{t(label)}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
