import { useState } from 'react';
import { Dialog } from './Dialog';
import { TextField } from './Field';

export interface NameDialogTexts {
  title: string;
  name: string;
  placeholder: string;
  create: string;
  cancel: string;
  /** Shown before asking the server when the name is blank; without it the server decides. */
  nameMissing?: string;
}

interface Props {
  id: string;
  texts: NameDialogTexts;
  busy: boolean;
  /** Saves the trimmed name; a rejection's text is shown under the field. */
  onCreate: (name: string) => Promise<void>;
  errorOf: (err: unknown) => string;
  onCancel: () => void;
}

/** Asks for the name of something new (a list, a family): at most 60 characters. */
export function NameDialog({ id, texts, busy, onCreate, errorOf, onCancel }: Props) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (texts.nameMissing && !name.trim()) return setError(texts.nameMissing);
    try {
      await onCreate(name.trim());
    } catch (err) {
      setError(errorOf(err));
    }
  }

  return (
    <Dialog
      title={texts.title}
      onClose={onCancel}
      actions={
        <>
          <button type="submit" form={id} className="button button--primary button--block" disabled={busy}>
            {texts.create}
          </button>
          <button type="button" className="button button--outline button--block" onClick={onCancel}>
            {texts.cancel}
          </button>
        </>
      }
    >
      <form id={id} onSubmit={submit} aria-label={texts.title} noValidate>
        <TextField label={texts.name} value={name} onValue={setName} error={error} maxLength={60} placeholder={texts.placeholder} />
      </form>
    </Dialog>
  );
}
