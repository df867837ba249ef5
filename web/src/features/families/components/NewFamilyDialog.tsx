import { useTranslation } from 'react-i18next';
import { NameDialog } from '../../../components/NameDialog';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { useCreateFamilyMutation } from '../api';
import type { FamilyCreated } from '../types';

interface Props {
  onCreated: (family: FamilyCreated) => void;
  onCancel: () => void;
}

/** Names a new family (1-60 characters; the server says so, and that there are at most 10). */
export function NewFamilyDialog({ onCreated, onCancel }: Props) {
  const { t } = useTranslation('families');
  const [create, { isLoading }] = useCreateFamilyMutation();
  return (
    <NameDialog
      id="new-family-form"
      texts={{
        title: t('newFamily.title'),
        name: t('newFamily.name'),
        placeholder: t('newFamily.placeholder'),
        create: t('newFamily.create'),
        cancel: t('newFamily.cancel'),
        nameMissing: t('newFamily.nameMissing'),
      }}
      busy={isLoading}
      onCreate={async (name) => onCreated(await create({ name }).unwrap())}
      errorOf={(err) => fieldErrors(err).name ?? errorMessage(err)}
      onCancel={onCancel}
    />
  );
}
