import { useEffect, useId, useRef, type ReactNode } from 'react';
import './Dialog.css';

interface DialogProps {
  title: string;
  children: ReactNode;
  /** Buttons or links, laid out in the dialog's footer. */
  actions: ReactNode;
  onClose?: () => void;
  icon?: ReactNode;
  /** 'tall': a long form (left-aligned, scrolls inside the screen on a phone). */
  size?: 'tall';
}

/**
 * A modal dialog: labelled, focus moved inside on open and kept there with Tab, Escape closes
 * it when it can be closed. Focus returns to what had it before.
 */
export function Dialog({ title, children, actions, onClose, icon, size }: DialogProps) {
  const titleId = useId();
  const bodyId = useId();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = panel.current?.querySelector<HTMLElement>('button, a[href], input, select, textarea');
    (first ?? panel.current)?.focus();
    return () => previous?.focus?.();
  }, []);

  function onKeyDown(event: React.KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape' && onClose) {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const focusable = Array.from(
      panel.current.querySelectorAll<HTMLElement>('button:not([disabled]), a[href], input, select, textarea'),
    );
    if (focusable.length === 0) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <div className="dialog-backdrop">
      <div
        ref={panel}
        className={size === 'tall' ? 'dialog dialog--tall' : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        {icon && <div className="dialog__icon">{icon}</div>}
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
        <div id={bodyId} className="dialog__body">
          {children}
        </div>
        <div className="dialog__actions">{actions}</div>
      </div>
    </div>
  );
}
