import { useTranslation } from 'react-i18next';
import { NameDialog } from '../../../components/NameDialog';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { useCreateListMutation } from '../api';
import type { WishList } from '../types';

interface Props {
  onCreated: (list: WishList) => void;
  onCancel: () => void;
}

/** Names a new list (1-60 characters; the server says so, and that there are at most 20). */
export function NewListDialog({ onCreated, onCancel }: Props) {
  const { t } = useTranslation('lists');
  const [create, { isLoading }] = useCreateListMutation();
  return (
    <NameDialog
      id="new-list-form"
      texts={{
        title: t('newList.title'),
        name: t('newList.name'),
        placeholder: t('newList.placeholder'),
        create: t('newList.create'),
        cancel: t('newList.cancel'),
      }}
      busy={isLoading}
      onCreate={async (name) => onCreated(await create({ name }).unwrap())}
      errorOf={(err) => fieldErrors(err).name ?? errorMessage(err)}
      onCancel={onCancel}
    />
  );
}
