import { Link } from 'react-router';
import { BarcodeIcon, CameraIcon, ListIcon, PencilIcon } from '../../../components/icons';
import './home.css';

const TILES = [
  { to: '/camera', label: 'Take Photo of your gift', Icon: CameraIcon, tone: 'red' },
  { to: '/scan', label: 'Scan UPC code of item', Icon: BarcodeIcon, tone: 'green' },
  { to: '/wishlist', label: 'View Wishlist', Icon: ListIcon, tone: 'gold' },
  { to: '/text-prompt', label: 'Add with Text', Icon: PencilIcon, tone: 'blue' },
] as const;

/** The four action tiles of the home screen. */
export function ActionTiles() {
  return (
    <nav aria-label="Add gifts">
      <ul className="tiles">
        {TILES.map(({ to, label, Icon, tone }) => (
          <li key={to}>
            <Link to={to} className={`tile tile--${tone}`}>
              <span className="tile__icon">
                <Icon size={28} />
              </span>
              <span className="tile__label">{label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
