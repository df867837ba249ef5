interface SpinnerProps {
  label?: string;
  size?: 'small' | 'large';
}

/** A spinning ring with an accessible name. */
export function Spinner({ label = 'Loading', size = 'large' }: SpinnerProps) {
  return (
    <span className={`spinner spinner--${size}`} role="status" aria-label={label}>
      <span className="spinner__ring" aria-hidden="true" />
    </span>
  );
}

export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="page-spinner">
      <Spinner label={label} />
    </div>
  );
}
