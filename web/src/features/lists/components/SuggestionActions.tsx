import { useTranslation } from 'react-i18next';
import { useToast } from '../../../app/shell/notices';
import { errorMessage } from '../../../lib/apiError';
import { useDeleteSuggestionMutation } from '../api';
import type { SharedItem } from '../types';

interface Props {
  token: string;
  item: SharedItem;
  onEdit: (item: SharedItem) => void;
}

/** Edit and delete of a suggestion: for the one who suggested it and for the list's managers. */
export function SuggestionActions({ token, item, onEdit }: Props) {
  const { t } = useTranslation('lists');
  const toast = useToast();
  const [remove, { isLoading }] = useDeleteSuggestionMutation();

  async function deleteIt() {
    if (!window.confirm(t('suggest.deleteConfirm', { name: item.name }))) return;
    try {
      await remove({ token, itemId: item.id }).unwrap();
      toast({ title: t('suggest.deleted', { name: item.name }) });
    } catch (err) {
      toast({ title: t('suggest.deleteFailed'), description: errorMessage(err), variant: 'destructive' });
    }
  }

  return (
    <>
      <button
        type="button"
        className="button button--outline button--small"
        aria-label={t('suggest.editLabel', { name: item.name })}
        onClick={() => onEdit(item)}
      >
        {t('suggest.edit')}
      </button>
      <button
        type="button"
        className="button button--danger-outline button--small"
        aria-label={t('suggest.deleteLabel', { name: item.name })}
        disabled={isLoading}
        onClick={() => void deleteIt()}
      >
        {t('suggest.delete')}
      </button>
    </>
  );
}
