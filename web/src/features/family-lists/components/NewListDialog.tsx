import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { Dialog } from '../../../components/Dialog';
import { TextField } from '../../../components/Field';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { useCreateListMutation } from '../api';
import type { WishList } from '../types';

interface Props {
  onCreated: (list: WishList) => void;
  onCancel: () => void;
}

/** Names a new list (1-60 characters; the server says so, and that there are at most 20). */
export function NewListDialog({ onCreated, onCancel }: Props) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [create, { isLoading }] = useCreateListMutation();
  const { t } = useTranslation('family-lists');

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    try {
      onCreated(await create({ name: name.trim() }).unwrap());
    } catch (err) {
      setError(fieldErrors(err).name ?? errorMessage(err));
    }
  }

  return (
    <Dialog
      title={t('newList.title')}
      onClose={onCancel}
      actions={
        <>
          <button type="submit" form="new-list-form" className="button button--primary button--block" disabled={isLoading}>
            {t('newList.create')}
          </button>
          <button type="button" className="button button--outline button--block" onClick={onCancel}>
            {t('newList.cancel')}
          </button>
        </>
      }
    >
      <form id="new-list-form" onSubmit={submit} aria-label={t('newList.title')}>
        <TextField label={t('newList.name')} value={name} onValue={setName} error={error} maxLength={60} placeholder={t('newList.placeholder')} />
      </form>
    </Dialog>
  );
}
