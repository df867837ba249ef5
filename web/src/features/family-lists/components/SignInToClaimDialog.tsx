import { useTranslation } from 'react-i18next';
import { SignInDialog } from '../../../components/SignInDialog';

/** Shown to a signed-out visitor who wants to claim a gift: after signing in they land back on this list. */
export function SignInToClaimDialog({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation('family-lists');
  return (
    <SignInDialog title={t('signIn.title')} signIn={t('signIn.signIn')} cancel={t('signIn.notNow')} onCancel={onCancel}>
      <p>{t('signIn.text')}</p>
    </SignInDialog>
  );
}
