import { Link, useLocation } from 'react-router';
import { CameraIcon, HomeIcon, ListIcon } from './icons';

const ITEMS = [
  { to: '/', label: 'Home', Icon: HomeIcon, matches: (p: string) => p === '/' },
  { to: '/camera', label: 'Camera', Icon: CameraIcon, matches: (p: string) => p === '/camera' || p === '/scan' },
  { to: '/wishlist', label: 'Wishlist', Icon: ListIcon, matches: (p: string) => p === '/wishlist' },
] as const;

/** Three entries: Home, Camera (also highlighted on /scan), Wishlist. */
export function BottomNav() {
  const { pathname } = useLocation();
  return (
    <nav className="bottom-nav" aria-label="Main">
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
                <span>{label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
