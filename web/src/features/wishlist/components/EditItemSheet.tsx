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

/** The fields that differ from the item: PATCH sends only those. */
export function changedFields(item: WishlistItem, edit: Required<ItemEdit>): ItemEdit {
  const changed: ItemEdit = {};
  if (edit.name !== item.name) changed.name = edit.name;
  if (edit.priority !== item.priority) changed.priority = edit.priority;
  if (edit.quantity !== item.quantity) changed.quantity = edit.quantity;
  if (edit.notes !== item.notes) changed.notes = edit.notes;
  return changed;
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

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const edit = changedFields(item, { name: name.trim(), priority, quantity: Number(quantity), notes });
    if (Object.keys(edit).length === 0) return onClose();
    try {
      await update({ id: item.id, ...edit }).unwrap();
      toast({ title: 'Saved', description: `${name.trim()} was updated.` });
      onClose();
    } catch (err) {
      const fields = fieldErrors(err);
      setErrors(Object.keys(fields).length ? fields : { form: errorMessage(err) });
    }
  }

  return (
    <Dialog
      title={`Edit ${item.name}`}
      onClose={onClose}
      actions={
        <>
          <button type="submit" form="edit-item-form" className="button button--primary button--block" disabled={isLoading}>
            Save
          </button>
          <button type="button" className="button button--outline button--block" onClick={onClose}>
            Cancel
          </button>
        </>
      }
    >
      <form id="edit-item-form" className="edit-sheet" onSubmit={save} aria-label="Edit item" noValidate>
        <TextField label="Gift Name" value={name} onValue={setName} error={errors.name} maxLength={200} />
        <fieldset className="edit-sheet__stars">
          <legend>How much do you want it?</legend>
          {PRIORITIES.map((p) => (
            <label key={p.value} className={`edit-sheet__star${priority >= p.value ? ' edit-sheet__star--on' : ''}`}>
              <input type="radio" name="priority" value={p.value} checked={priority === p.value} onChange={() => setPriority(p.value)} />
              <span aria-hidden="true">★</span>
              <span className="visually-hidden">{p.label}</span>
            </label>
          ))}
          <span className="edit-sheet__star-label">{PRIORITIES.find((p) => p.value === priority)?.label}</span>
          {errors.priority && <p className="field__error">{errors.priority}</p>}
        </fieldset>
        <div className={`field${errors.quantity ? ' field--invalid' : ''}`}>
          <label htmlFor={qtyId} className="field__label">
            How many
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
            Notes <span className="field__optional">(size, colour, &quot;any edition&quot;)</span>
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
