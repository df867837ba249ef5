import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../../components/Field';
import { errorMessage, fieldErrors } from '../../../../lib/apiError';
import { uuid } from '../../../../lib/ids';
import { useSendSecretSantaMessageMutation } from '../../api';
import type { Conversation } from '../../types';

export const MAX_MESSAGE = 500;

interface Props {
  familyId: string;
  to: Conversation;
  gifteeName: string;
}

/** Writes to the giftee or to one's own Secret Santa; the server's 422 message shows under the box. */
export function MessageComposer({ familyId, to, gifteeName }: Props) {
  const { t } = useTranslation('families');
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  // One key per draft text: a retry of the same text after a lost answer is sent once; an edited
  // text is a new message (the server refuses a key reused with another body).
  const [draftKey, setDraftKey] = useState(uuid);
  const [send, sending] = useSendSecretSantaMessageMutation();
  const empty = text.trim() === '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (empty || sending.isLoading) return;
    setError(undefined);
    try {
      await send({ familyId, to, text, idempotencyKey: draftKey }).unwrap();
      setText('');
    } catch (err) {
      setError(fieldErrors(err).text ?? fieldErrors(err).to ?? errorMessage(err));
    }
  }

  const label = to === 'giftee' ? t('messages.toGiftee', { name: gifteeName }) : t('messages.toSanta');
  return (
    <form className="santa-composer" onSubmit={submit} noValidate>
      <Field label={label} error={error} hint={t('messages.count', { n: text.length, max: MAX_MESSAGE })}>
        {({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            className="input textarea santa-composer__text"
            rows={2}
            maxLength={MAX_MESSAGE}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setDraftKey(uuid());
            }}
          />
        )}
      </Field>
      <button type="submit" className="button button--primary" disabled={empty || sending.isLoading}>
        {sending.isLoading ? t('messages.sending') : t('messages.send')}
      </button>
    </form>
  );
}
