import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BarcodeIcon, CameraIcon, ListIcon, PencilIcon } from '../../../components/icons';
import './home.css';

const TILES = [
  { to: '/camera', label: 'tiles.camera', Icon: CameraIcon, tone: 'red' },
  { to: '/scan', label: 'tiles.scan', Icon: BarcodeIcon, tone: 'green' },
  { to: '/wishlist', label: 'tiles.wishlist', Icon: ListIcon, tone: 'gold' },
  { to: '/text-prompt', label: 'tiles.text', Icon: PencilIcon, tone: 'blue' },
] as const;

/** The four action tiles of the home screen. */
export function ActionTiles() {
  const { t } = useTranslation('home');
  return (
    <nav aria-label={t('tiles.label')}>
      <ul className="tiles">
        {TILES.map(({ to, label, Icon, tone }) => (
          <li key={to}>
            <Link to={to} className={`tile tile--${tone}`}>
              <span className="tile__icon">
                <Icon size={28} />
              </span>
              <span className="tile__label">{t(label)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
