import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/Dialog';
import { TextField } from '../../../components/Field';
import { useToast } from '../../../app/shell/notices';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { useStartGroupGiftMutation } from '../api';
import { isCurrencyCode, timesUnits } from '../money';
import type { GivingItem, StartGroupGift } from '../types';
import { AmountField, useCheckAmount } from './AmountField';

interface Props {
  token: string;
  item: GivingItem;
  onClose: () => void;
}

/**
 * The target a group gift starts with: the price read from the item × the units still free, in
 * the price's currency ('' when the price names none: the sheet asks for it).
 */
export function defaultTarget(item: GivingItem): { target: string; currency: string } | null {
  const price = item.priceAmount;
  if (!price) return null;
  const free = Math.max(0, item.quantity - (item.claimed ?? 0));
  // Without a currency, the price's own digits are kept (at most two are read from a price).
  const target = timesUnits(price.amount, free, price.currency ?? 'EUR');
  return target ? { target, currency: price.currency ?? '' } : null;
}

/**
 * The start sheet of a group gift: its target (the price by default), its currency when the
 * price does not say, and the organizer's own share if they want to put one in at once.
 */
export function StartGroupGiftDialog({ token, item, onClose }: Props) {
  const { t } = useTranslation('giving');
  const toast = useToast();
  const check = useCheckAmount();
  const initial = defaultTarget(item);
  const [target, setTarget] = useState(initial?.target ?? '');
  const [currency, setCurrency] = useState(initial?.currency ?? '');
  const [share, setShare] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [start, { isLoading }] = useStartGroupGiftMutation();
  const code = currency.trim().toUpperCase();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems: Record<string, string> = {};
    if (!isCurrencyCode(code)) problems.currency = t('start.currencyInvalid');
    const body: StartGroupGift = { currency: code };
    const checkedTarget = check(target, code || 'EUR');
    if (checkedTarget.error !== undefined) problems.target = checkedTarget.error;
    else body.target = checkedTarget.amount;
    if (share.trim()) {
      const checkedShare = check(share, code || 'EUR');
      if (checkedShare.error !== undefined) problems.amount = checkedShare.error;
      else body.amount = checkedShare.amount;
    }
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    try {
      await start({ token, itemId: item.id, ...body }).unwrap();
      toast({ title: t('start.doneTitle'), description: t('start.doneText', { name: item.name }) });
      onClose();
    } catch (err) {
      const fields = fieldErrors(err);
      if (Object.keys(fields).length > 0) setErrors(fields);
      else setErrors({ form: errorMessage(err) });
    }
  }

  return (
    <Dialog
      title={t('start.title', { name: item.name })}
      onClose={onClose}
      size="tall"
      actions={
        <>
          <button type="button" className="button button--outline" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" form={`start-group-gift-${item.id}`} className="button button--primary" disabled={isLoading}>
            {t('start.submit')}
          </button>
        </>
      }
    >
      <form id={`start-group-gift-${item.id}`} className="giving-form" onSubmit={submit} noValidate>
        <p>{t('start.intro')}</p>
        <AmountField
          label={t('start.target', { currency: code || '…' })}
          value={target}
          onValue={setTarget}
          currency={code}
          error={errors.target}
          hint={initial ? t('start.targetHint') : t('start.noPrice')}
        />
        <TextField
          label={t('start.currency')}
          value={currency}
          onValue={setCurrency}
          error={errors.currency}
          hint={t('start.currencyHint')}
          maxLength={3}
          autoCapitalize="characters"
          autoComplete="off"
        />
        <AmountField
          label={t('start.share', { currency: code || '…' })}
          value={share}
          onValue={setShare}
          currency={code}
          error={errors.amount}
          optional
        />
        {errors.form && (
          <p className="notice notice--warning" role="alert">
            {errors.form}
          </p>
        )}
        <p className="muted">{t('noMoneyMoves')}</p>
      </form>
    </Dialog>
  );
}
