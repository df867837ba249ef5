import { useTranslation } from 'react-i18next';
import { recipientName, type ListRecipient } from '../types';

/** Whom a list kept for someone else is for: a person without an account, or a family member. */
export function RecipientLine({ recipient }: { recipient: ListRecipient }) {
  const { t } = useTranslation('lists');
  const name = recipientName(recipient);
  if (!name) return null;
  return (
    <p className="list-settings__recipient" data-testid="list-recipient">
      {recipient.kind === 'person' ? t('settings.forPerson', { name }) : t('settings.forMember', { name })}
    </p>
  );
}
