import { useTranslation } from 'react-i18next';
import { useId, useState } from 'react';
import { Dialog } from '../../../components/Dialog';
import { TextField } from '../../../components/Field';
import { useToast } from '../../../app/shell/notices';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { useUpdateWishlistItemMutation } from '../api';
import { PRIORITIES, type ItemEdit, type WishlistItem } from '../types';

interface Props {
  item: WishlistItem;
  onClose: () => void;
}

/** The form's fields that differ from the item: PATCH sends only those. */
export function changedFields(item: WishlistItem, form: ItemEdit & Partial<WishlistItem>): ItemEdit {
  return Object.fromEntries(Object.entries(form).filter(([key, value]) => value !== item[key as keyof WishlistItem]));
}

/** Edits an item's name, priority (stars, 3 = most wanted), quantity and notes; the server's messages show per field. */
export function EditItemSheet({ item, onClose }: Props) {
  const [name, setName] = useState(item.name);
  const [priority, setPriority] = useState(item.priority);
  const [quantity, setQuantity] = useState(String(item.quantity));
  const [notes, setNotes] = useState(item.notes);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [update, { isLoading }] = useUpdateWishlistItemMutation();
  const toast = useToast();
  const notesId = useId();
  const qtyId = useId();
  const { t } = useTranslation('wishlist');

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const edit = changedFields(item, { name: name.trim(), priority, quantity: Number(quantity), notes });
    if (Object.keys(edit).length === 0) return onClose();
    try {
      await update({ id: item.id, ...edit }).unwrap();
      toast({ title: t('edit.savedTitle'), description: t('edit.savedText', { name: name.trim() }) });
      onClose();
    } catch (err) {
      const fields = fieldErrors(err);
      setErrors(Object.keys(fields).length ? fields : { form: errorMessage(err) });
    }
  }

  return (
    <Dialog
      title={t('edit.title', { name: item.name })}
      onClose={onClose}
      actions={
        <>
          <button type="submit" form="edit-item-form" className="button button--primary button--block" disabled={isLoading}>
            {t('edit.save')}
          </button>
          <button type="button" className="button button--outline button--block" onClick={onClose}>
            {t('edit.cancel')}
          </button>
        </>
      }
    >
      <form id="edit-item-form" className="edit-sheet" onSubmit={save} aria-label={t('edit.form')} noValidate>
        <TextField label={t('add.name')} value={name} onValue={setName} error={errors.name} maxLength={200} />
        <fieldset className="edit-sheet__stars">
          <legend>{t('edit.stars')}</legend>
          {PRIORITIES.map((p) => (
            <label key={p} className={`edit-sheet__star${priority >= p ? ' edit-sheet__star--on' : ''}`}>
              <input type="radio" name="priority" value={p} checked={priority === p} onChange={() => setPriority(p)} />
              <span aria-hidden="true">★</span>
              <span className="visually-hidden">{t(`priorities.${p}`)}</span>
            </label>
          ))}
          <span className="edit-sheet__star-label">{t(`priorities.${priority}`)}</span>
          {errors.priority && <p className="field__error">{errors.priority}</p>}
        </fieldset>
        <div className={`field${errors.quantity ? ' field--invalid' : ''}`}>
          <label htmlFor={qtyId} className="field__label">
            {t('edit.howMany')}
          </label>
          <input id={qtyId} className="input" type="number" min={1} max={99} value={quantity} onChange={(e) => setQuantity(e.target.value)} />
          {errors.quantity && (
            <p className="field__error" role="alert">
              {errors.quantity}
            </p>
          )}
        </div>
        <div className={`field${errors.notes ? ' field--invalid' : ''}`}>
          <label htmlFor={notesId} className="field__label">
            {t('edit.notes')} <span className="field__optional">{t('edit.notesHint')}</span>
          </label>
          <textarea id={notesId} className="input textarea" rows={3} maxLength={500} value={notes} onChange={(e) => setNotes(e.target.value)} />
          {errors.notes && (
            <p className="field__error" role="alert">
              {errors.notes}
            </p>
          )}
        </div>
        {errors.form && (
          <p className="field__error" role="alert">
            {errors.form}
          </p>
        )}
      </form>
    </Dialog>
  );
}
