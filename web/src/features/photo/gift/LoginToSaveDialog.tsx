import { useTranslation } from 'react-i18next';
import { SignInDialog } from '../../../components/SignInDialog';

/**
 * Shown to a signed-out visitor who tries to save (docs/spec.md, section 2 'Gift options'). The
 * photo and its details stay in this browser's storage, so after logging in they come back to the
 * same gift.
 */
export function LoginToSaveDialog({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation('photo');
  return (
    <SignInDialog title={t('gift.loginTitle')} signIn={t('gift.login')} cancel={t('common.cancel')} onCancel={onCancel}>
      <p>{t('gift.loginText')}</p>
    </SignInDialog>
  );
}
