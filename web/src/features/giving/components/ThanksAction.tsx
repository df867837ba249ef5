import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/Dialog';
import { Field } from '../../../components/Field';
import { useToast } from '../../../app/shell/notices';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { useSayThanksMutation } from '../api';
import type { RevealedGift } from '../types';
import './giving.css';

/** A thank-you message: 1-500 characters (the server says so too). */
export const MAX_THANKS = 500;

interface ThanksItem {
  id: string;
  name: string;
  claims?: readonly RevealedGift[];
}

/** The gifts of an item whose reveal date has passed: claims and pledges alike. */
export function revealedGifts(item: ThanksItem, now = Date.now()): RevealedGift[] {
  return (item.claims ?? []).filter((c) => !!c.revealedAt && Date.parse(c.revealedAt) <= now);
}

/**
 * "Say thank you" on a gift the owner received: shown only once a claim on the item is revealed
 * (the server sends the owner no claim before), and "Thanked" once every giver was thanked.
 */
export function ThanksAction({ item }: { item: ThanksItem }) {
  const { t } = useTranslation('giving');
  const [open, setOpen] = useState(false);
  const gifts = revealedGifts(item);
  if (gifts.length === 0) return null;
  if (gifts.every((g) => !!g.thankedAt)) {
    return (
      <p className="thanks-action thanks-done" data-testid="thanked">
        {t('thanks.done')}
      </p>
    );
  }
  return (
    <div className="thanks-action">
      <button
        type="button"
        className="button button--primary button--small"
        aria-label={t('thanks.buttonFor', { name: item.name })}
        onClick={() => setOpen(true)}
      >
        {t('thanks.button')}
      </button>
      {open && <ThanksDialog item={item} givers={gifts.filter((g) => !g.thankedAt).map((g) => g.displayName)} onClose={() => setOpen(false)} />}
    </div>
  );
}

function ThanksDialog({ item, givers, onClose }: { item: ThanksItem; givers: string[]; onClose: () => void }) {
  const { t, i18n } = useTranslation('giving');
  const toast = useToast();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | undefined>();
  const [thank, { isLoading }] = useSayThanksMutation();
  const names = new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format([...new Set(givers)]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const text = message.trim();
    if (!text) return setError(t('thanks.empty'));
    if (text.length > MAX_THANKS) return setError(t('thanks.tooLong', { max: MAX_THANKS }));
    setError(undefined);
    try {
      const result = await thank({ itemId: item.id, message: text }).unwrap();
      toast({ title: t('thanks.sentTitle'), description: t('thanks.sent', { count: result.thanked }) });
      onClose();
    } catch (err) {
      const fields = fieldErrors(err);
      if (fields.message) setError(fields.message);
      else setFormError(errorMessage(err));
    }
  }

  return (
    <Dialog
      title={t('thanks.title', { name: item.name })}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button--outline" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" form={`thanks-${item.id}`} className="button button--primary" disabled={isLoading}>
            {t('thanks.send')}
          </button>
        </>
      }
    >
      <form id={`thanks-${item.id}`} className="giving-form" onSubmit={submit} noValidate>
        <p>{t('thanks.to', { names })}</p>
        <Field label={t('thanks.message')} error={error} hint={t('thanks.hint', { count: message.length, max: MAX_THANKS })}>
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              className="input textarea"
              rows={4}
              maxLength={MAX_THANKS}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
            />
          )}
        </Field>
        {formError && (
          <p className="notice notice--warning" role="alert">
            {formError}
          </p>
        )}
      </form>
    </Dialog>
  );
}
