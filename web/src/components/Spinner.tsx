import { useTranslation } from 'react-i18next';
import './Spinner.css';

interface SpinnerProps {
  label?: string;
  size?: 'small' | 'large';
}

/** A spinning ring with an accessible name. */
export function Spinner({ label, size = 'large' }: SpinnerProps) {
  const { t } = useTranslation('common');
  return (
    <span className={`spinner spinner--${size}`} role="status" aria-label={label ?? t('loading')}>
      <span className="spinner__ring" aria-hidden="true" />
    </span>
  );
}

export function PageSpinner({ label }: { label?: string }) {
  return (
    <div className="page-spinner">
      <Spinner label={label} />
    </div>
  );
}
