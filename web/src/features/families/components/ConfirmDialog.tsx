import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/Dialog';

interface Props {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks once more before something that is hard to take back. */
export function ConfirmDialog({ title, children, confirmLabel, busy, onConfirm, onCancel }: Props) {
  const { t } = useTranslation('families');
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button button--primary button--block" disabled={busy} onClick={onConfirm}>
            {confirmLabel}
          </button>
          <button type="button" className="button button--outline button--block" onClick={onCancel}>
            {t('confirm.cancel')}
          </button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
