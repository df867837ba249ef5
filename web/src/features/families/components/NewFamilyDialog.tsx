import { useState } from 'react';
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
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [create, { isLoading }] = useCreateFamilyMutation();

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError('Give the family a name.');
    try {
      onCreated(await create({ name: name.trim() }).unwrap());
    } catch (err) {
      setError(fieldErrors(err).name ?? errorMessage(err));
    }
  }

  return (
    <Dialog
      title="New family"
      onClose={onCancel}
      actions={
        <>
          <button type="submit" form="new-family-form" className="button button--primary button--block" disabled={isLoading}>
            Create family
          </button>
          <button type="button" className="button button--outline button--block" onClick={onCancel}>
            Cancel
          </button>
        </>
      }
    >
      <form id="new-family-form" onSubmit={submit} aria-label="New family" noValidate>
        <TextField label="Family name" value={name} onValue={setName} error={error} maxLength={60} placeholder="The Smiths" />
      </form>
    </Dialog>
  );
}
