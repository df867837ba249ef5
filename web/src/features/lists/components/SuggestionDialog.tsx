import { useTranslation } from 'react-i18next';
import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/Dialog';
import { Field, TextField } from '../../../components/Field';
import { useToast } from '../../../app/shell/notices';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { useEditSuggestionMutation, useSuggestGiftMutation } from '../api';
import { useSuggestionImport, type SuggestionImportFields } from '../suggestionImport';
import type { SharedItem, SuggestionDraft } from '../types';

interface Props {
  token: string;
  /** The suggestion to edit; a new one when absent. */
  item?: SharedItem;
  /** Whose list it is, for the title ("Suggest a gift for Emma"). */
  recipient: string;
  onClose: () => void;
}

interface Values {
  name: string;
  description: string;
  price: string;
  shoppingUrl: string;
  notes: string;
  quantity: string;
}

function valuesOf(item: SharedItem | undefined): Values {
  return {
    name: item?.name ?? '',
    description: item?.description ?? '',
    price: item?.price ?? '',
    shoppingUrl: item?.shoppingUrl ?? '',
    notes: item?.notes ?? '',
    quantity: String(item?.quantity ?? 1),
  };
}

/** The request body: trimmed, empty optional fields left out (the server validates as for an item). */
export function suggestionBody(values: Values): SuggestionDraft {
  const body: SuggestionDraft = { name: values.name.trim(), quantity: Number(values.quantity) || 1 };
  for (const key of ['description', 'price', 'shoppingUrl', 'notes'] as const) {
    const value = values[key].trim();
    if (value) body[key] = value;
  }
  return body;
}

/** "Suggest a gift": a giver adds an idea to someone's list (or edits theirs); the recipient never sees it. */
export function SuggestionDialog({ token, item, recipient, onClose }: Props) {
  const { t } = useTranslation('lists');
  const toast = useToast();
  const renderImport = useSuggestionImport();
  const [values, setValues] = useState<Values>(() => valuesOf(item));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [suggest, suggesting] = useSuggestGiftMutation();
  const [edit, editing] = useEditSuggestionMutation();
  const busy = suggesting.isLoading || editing.isLoading;

  function set(key: keyof Values, value: string) {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '', form: '' }));
  }

  function fill(fields: SuggestionImportFields) {
    setValues((v) => ({
      ...v,
      name: fields.name || v.name,
      description: fields.description || v.description,
      price: fields.price || v.price,
      shoppingUrl: fields.shoppingUrl ?? v.shoppingUrl,
    }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!values.name.trim()) return setErrors({ name: t('suggest.nameMissing') });
    try {
      const body = suggestionBody(values);
      if (item) await edit({ token, itemId: item.id, ...body }).unwrap();
      else await suggest({ token, ...body }).unwrap();
      toast({ title: item ? t('suggest.saved') : t('suggest.done', { name: recipient }) });
      onClose();
    } catch (err) {
      const fields = fieldErrors(err);
      setErrors(Object.keys(fields).length ? fields : { form: errorMessage(err) });
    }
  }

  const text = (key: 'description' | 'notes', rows: number, max?: number) => (
    <Field label={t(`suggest.${key}`)} optional error={errors[key]}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          className="input textarea"
          rows={rows}
          maxLength={max}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          value={values[key]}
          onChange={(e) => set(key, e.target.value)}
        />
      )}
    </Field>
  );

  return (
    <Dialog
      title={item ? t('suggest.editTitle', { name: item.name }) : t('suggest.title', { name: recipient })}
      onClose={onClose}
      size="tall"
      actions={
        <>
          <button type="submit" form="suggestion-form" className="button button--primary button--block" disabled={busy}>
            {item ? t('suggest.save') : t('suggest.submit')}
          </button>
          <button type="button" className="button button--outline button--block" onClick={onClose}>
            {t('suggest.cancel')}
          </button>
        </>
      }
    >
      <p className="muted">{t('suggest.secret', { name: recipient })}</p>
      <form id="suggestion-form" className="form" onSubmit={submit} aria-label={t('suggest.form')} noValidate>
        {!item && renderImport?.({ onFill: fill })}
        <TextField label={t('suggest.name')} value={values.name} onValue={(v) => set('name', v)} error={errors.name} autoComplete="off" />
        {text('description', 3)}
        <TextField label={t('suggest.price')} optional value={values.price} onValue={(v) => set('price', v)} error={errors.price} autoComplete="off" />
        <TextField
          label={t('suggest.link')}
          optional
          type="url"
          inputMode="url"
          placeholder="https://…"
          value={values.shoppingUrl}
          onValue={(v) => set('shoppingUrl', v)}
          error={errors.shoppingUrl}
        />
        {text('notes', 2, 500)}
        <TextField
          label={t('suggest.quantity')}
          type="number"
          min={1}
          max={99}
          inputMode="numeric"
          value={values.quantity}
          onValue={(v) => set('quantity', v)}
          error={errors.quantity}
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
