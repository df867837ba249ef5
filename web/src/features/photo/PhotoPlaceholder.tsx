import { Link } from 'react-router';
import { CameraIcon } from '../../components/icons';
import { usePageTitle } from '../../lib/usePageTitle';

interface Props {
  title: string;
  children?: React.ReactNode;
}

/**
 * Stand-in for a photo-flow screen until that issue replaces it (camera, sticker editor,
 * gift options, confirmation, share options, image recognition).
 */
export function PhotoPlaceholder({ title, children }: Props) {
  usePageTitle(title);
  return (
    <section className="page page--narrow" aria-labelledby="placeholder-title">
      <div className="card empty-state">
        <span className="empty-state__icon">
          <CameraIcon size={48} />
        </span>
        <h1 id="placeholder-title" className="page__title">
          {title}
        </h1>
        {children}
        <p className="muted">This part of the app is coming soon. Meanwhile you can describe a gift in text.</p>
        <div className="button-row button-row--center">
          <Link to="/text-prompt" className="button button--primary">
            Add with Text
          </Link>
          <Link to="/" className="button button--outline">
            Home
          </Link>
        </div>
      </div>
    </section>
  );
}
