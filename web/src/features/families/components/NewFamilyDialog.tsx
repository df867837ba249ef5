import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/Dialog';
import { TextField } from '../../../components/Field';
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
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [create, { isLoading }] = useCreateFamilyMutation();

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError(t('newFamily.nameMissing'));
    try {
      onCreated(await create({ name: name.trim() }).unwrap());
    } catch (err) {
      setError(fieldErrors(err).name ?? errorMessage(err));
    }
  }

  return (
    <Dialog
      title={t('newFamily.title')}
      onClose={onCancel}
      actions={
        <>
          <button type="submit" form="new-family-form" className="button button--primary button--block" disabled={isLoading}>
            {t('newFamily.create')}
          </button>
          <button type="button" className="button button--outline button--block" onClick={onCancel}>
            {t('newFamily.cancel')}
          </button>
        </>
      }
    >
      <form id="new-family-form" onSubmit={submit} aria-label={t('newFamily.title')} noValidate>
        <TextField label={t('newFamily.name')} value={name} onValue={setName} error={error} maxLength={60} placeholder={t('newFamily.placeholder')} />
      </form>
    </Dialog>
  );
}
