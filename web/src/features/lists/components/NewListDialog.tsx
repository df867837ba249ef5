import { useTranslation } from 'react-i18next';
import { useMemo, useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/Dialog';
import { TextField } from '../../../components/Field';
import { useAppSelector } from '../../../app/hooks';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { selectCurrentUser } from '../../../lib/session';
import { useCreateListMutation, useGetFamilyChoicesQuery } from '../api';
import { familyPeople, MAX_RECIPIENT_NAME, type RecipientDraft, type WishList } from '../types';
import { RecipientFields, type RecipientValues } from './RecipientFields';

interface Props {
  onCreated: (list: WishList) => void;
  onCancel: () => void;
}

interface Errors {
  recipient?: string;
  name?: string;
  form?: string;
}

/** The recipient POST /api/lists gets; none for the caller's own list (the server's default). */
export function recipientDraft(values: RecipientValues): RecipientDraft | undefined {
  if (values.kind === 'person') return { kind: 'person', name: values.name.trim() };
  if (values.kind === 'member') return { kind: 'member', uid: values.uid };
  return undefined;
}

/**
 * A new list: whose it is (mine, someone without an account, a family member) and its name
 * (1-60 characters; for someone else it may stay empty and the server names it "{name}'s wishlist").
 */
export function NewListDialog({ onCreated, onCancel }: Props) {
  const { t } = useTranslation('lists');
  const me = useAppSelector(selectCurrentUser)?.id;
  const [create, { isLoading }] = useCreateListMutation();
  const [recipient, setRecipient] = useState<RecipientValues>({ kind: 'self', name: '', uid: '' });
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const { data: families } = useGetFamilyChoicesQuery(undefined, { skip: recipient.kind !== 'member' });
  const people = useMemo(() => (families ? familyPeople(families, me) : undefined), [families, me]);
  const forSomeoneElse = recipient.kind !== 'self';

  /** What the form can tell before asking: a person's name (1-40) and a chosen member. */
  function check(): string | undefined {
    const personName = recipient.name.trim();
    if (recipient.kind === 'person' && (personName.length < 1 || personName.length > MAX_RECIPIENT_NAME)) return t('recipient.nameRule');
    if (recipient.kind === 'member' && !recipient.uid) return t('recipient.memberRule');
    return undefined;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = check();
    if (problem) return setErrors({ recipient: problem });
    setErrors({});
    const draft = recipientDraft(recipient);
    const body = { ...(name.trim() || !draft ? { name: name.trim() } : {}), ...(draft ? { recipient: draft } : {}) };
    try {
      onCreated(await create(body).unwrap());
    } catch (err) {
      const fields = fieldErrors(err);
      if (fields.recipient || fields.name) setErrors({ recipient: fields.recipient, name: fields.name });
      else setErrors({ form: errorMessage(err) });
    }
  }

  return (
    <Dialog
      title={t('newList.title')}
      onClose={onCancel}
      size="tall"
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
      <form id="new-list-form" className="new-list" onSubmit={submit} aria-label={t('newList.title')} noValidate>
        <RecipientFields
          values={recipient}
          onChange={(next) => {
            setRecipient(next);
            setErrors((e) => ({ ...e, recipient: undefined }));
          }}
          people={people}
          error={errors.recipient}
        />
        <TextField
          label={t('newList.name')}
          optional={forSomeoneElse}
          hint={forSomeoneElse ? t('newList.nameHint') : undefined}
          value={name}
          onValue={(value) => {
            setName(value);
            setErrors((e) => ({ ...e, name: undefined }));
          }}
          error={errors.name}
          maxLength={60}
          placeholder={t('newList.placeholder')}
        />
        {errors.form && (
          <p className="field__error" role="alert">
            {errors.form}
          </p>
        )}
      </form>
    </Dialog>
  );
}
