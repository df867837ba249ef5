import { useTranslation } from 'react-i18next';
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../hooks';
import { dismissToast } from './slice';
import { CloseIcon } from '../../components/icons';

/** Shows the one titled toast, then removes it after its duration. */
export function Toaster() {
  const { t } = useTranslation('common');
  const toast = useAppSelector((s) => s.shell.toast);
  const dispatch = useAppDispatch();

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => dispatch(dismissToast(toast.id)), toast.duration);
    return () => clearTimeout(timer);
  }, [toast, dispatch]);

  return (
    // The live region stays mounted so screen readers announce toasts added to it.
    <div className="toaster" aria-live="polite" aria-atomic="true">
      {toast && (
        <div
          key={toast.id}
          className={`toast toast--${toast.variant}`}
          role={toast.variant === 'destructive' ? 'alert' : 'status'}
          data-testid="toast"
        >
          <div className="toast__text">
            <p className="toast__title">{toast.title}</p>
            {toast.description && <p className="toast__description">{toast.description}</p>}
          </div>
          <button
            type="button"
            className="toast__close"
            aria-label={t('toast.close')}
            onClick={() => dispatch(dismissToast(toast.id))}
          >
            <CloseIcon size={18} />
          </button>
        </div>
      )}
    </div>
  );
}
