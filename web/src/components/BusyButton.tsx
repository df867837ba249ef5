import type { ButtonHTMLAttributes } from 'react';
import { Spinner } from './Spinner';

interface BusyButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  busy: boolean;
  /** The spinner's accessible name, e.g. 'Processing'. */
  busyLabel: string;
  /** What the button says while busy, e.g. 'Processing...'. */
  busyText: string;
}

/** A button that shows a spinner and another text while its action runs; disabled meanwhile. */
export function BusyButton({ busy, busyLabel, busyText, disabled, children, type = 'button', ...rest }: BusyButtonProps) {
  return (
    <button type={type} disabled={disabled ?? busy} aria-busy={busy} {...rest}>
      {busy ? (
        <>
          <Spinner size="small" label={busyLabel} /> {busyText}
        </>
      ) : (
        children
      )}
    </button>
  );
}
