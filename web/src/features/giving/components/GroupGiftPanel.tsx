import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../../app/shell/notices';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { useCancelGroupGiftMutation, usePledgeMutation, useWithdrawPledgeMutation } from '../api';
import { percentOf } from '../money';
import type { GivingItem, GroupGift } from '../types';
import { AmountField, useCheckAmount } from './AmountField';
import { StartGroupGiftDialog } from './StartGroupGiftDialog';
import { useMoney } from './useMoney';
import './giving.css';

interface Props {
  token: string;
  item: GivingItem;
}

/** Units nobody has claimed yet (a complete group gift counts in `claimed`). */
function unitsFree(item: GivingItem): number {
  return Math.max(0, item.quantity - (item.claimed ?? 0));
}

/**
 * "Give together" on a giver's shared item: the group gift's progress, who is in for how much,
 * the caller's own pledge, or the button that starts one. Shown to givers only: the shared view
 * gives the recipient and visitors no `groupGift`, and the list mounts this for members only.
 */
export function GroupGiftPanel({ token, item }: Props) {
  const { t } = useTranslation('giving');
  const [starting, setStarting] = useState(false);
  const gift = item.groupGift;
  if (!gift) {
    if (unitsFree(item) === 0) return null;
    return (
      <>
        <button
          type="button"
          className="button button--outline button--small"
          aria-label={t('group.startFor', { name: item.name })}
          onClick={() => setStarting(true)}
        >
          {t('group.start')}
        </button>
        {starting && <StartGroupGiftDialog token={token} item={item} onClose={() => setStarting(false)} />}
      </>
    );
  }
  return <GroupGiftProgress token={token} item={item} gift={gift} />;
}

function GroupGiftProgress({ token, item, gift }: Props & { gift: GroupGift }) {
  const { t } = useTranslation('giving');
  const money = useMoney();
  const toast = useToast();
  const check = useCheckAmount();
  const mine = gift.pledges.find((p) => p.mine);
  const [amount, setAmount] = useState(mine?.amount ?? '');
  const [error, setError] = useState<string | undefined>();
  const [pledge, { isLoading: saving }] = usePledgeMutation();
  const [withdraw, { isLoading: withdrawing }] = useWithdrawPledgeMutation();
  const [cancel, { isLoading: cancelling }] = useCancelGroupGiftMutation();
  const titleId = `group-gift-${item.id}`;
  const othersPledged = gift.pledges.some((p) => !p.mine);
  // A new pledger cannot join a complete gift; one already in may still change or withdraw.
  const canPledge = !gift.complete || !!mine;

  async function save(event: FormEvent) {
    event.preventDefault();
    const checked = check(amount, gift.currency);
    if (checked.error !== undefined) {
      setError(checked.error);
      return;
    }
    setError(undefined);
    try {
      await pledge({ token, itemId: item.id, amount: checked.amount }).unwrap();
      toast({ title: t('group.pledgedTitle'), description: t('group.pledgedText', { amount: money(checked.amount, gift.currency), name: item.name }) });
    } catch (err) {
      const fields = fieldErrors(err);
      if (fields.amount) setError(fields.amount);
      else toast({ title: t('couldNotSave'), description: errorMessage(err), variant: 'destructive' });
    }
  }

  async function run(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      toast({ title: done });
    } catch (err) {
      toast({ title: t('couldNotSave'), description: errorMessage(err), variant: 'destructive' });
    }
  }

  const pledged = money(gift.pledged, gift.currency);
  const target = money(gift.target, gift.currency);
  return (
    <section className="group-gift" aria-labelledby={titleId} data-testid="group-gift">
      <h4 id={titleId} className="group-gift__title">
        {t('group.title')}
      </h4>
      <p className="group-gift__organizer muted">
        {gift.organizerIsMe ? t('group.startedByMe') : t('group.startedBy', { name: gift.organizer.displayName })}
      </p>
      <div
        className="group-gift__bar"
        role="progressbar"
        aria-label={t('group.progressLabel', { name: item.name })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(percentOf(gift.pledged, gift.target))}
        aria-valuetext={t('group.progress', { pledged, target })}
      >
        <span className="group-gift__fill" style={{ width: `${percentOf(gift.pledged, gift.target)}%` }} />
      </div>
      <p className="group-gift__status">
        {gift.complete ? (
          <strong>{t('group.complete', { pledged, target })}</strong>
        ) : (
          t('group.progressLeft', { pledged, target, remaining: money(gift.remaining, gift.currency) })
        )}
      </p>
      {gift.pledges.length > 0 && (
        <ul className="group-gift__pledges" aria-label={t('group.pledgesLabel')}>
          {gift.pledges.map((p, index) => (
            <li key={`${p.displayName}-${index}`}>
              <span>{p.mine ? t('group.you') : p.displayName}</span>
              <span>{money(p.amount, gift.currency)}</span>
            </li>
          ))}
        </ul>
      )}
      {canPledge && (
        <form className="group-gift__form" onSubmit={save} noValidate>
          <AmountField
            label={t(mine ? 'group.changeLabel' : 'group.inFor', { currency: gift.currency })}
            value={amount}
            onValue={setAmount}
            currency={gift.currency}
            error={error}
          />
          <div className="button-row">
            <button type="submit" className="button button--primary button--small" disabled={saving}>
              {mine ? t('group.change') : t('group.join')}
            </button>
            {mine && (
              <button
                type="button"
                className="button button--outline button--small"
                disabled={withdrawing}
                onClick={() =>
                  void run(async () => {
                    await withdraw({ token, itemId: item.id }).unwrap();
                    setAmount('');
                  }, t('group.withdrawn'))
                }
              >
                {t('group.withdraw')}
              </button>
            )}
          </div>
        </form>
      )}
      {gift.organizerIsMe && !othersPledged && (
        <button
          type="button"
          className="button button--outline button--small"
          disabled={cancelling}
          onClick={() => void run(() => cancel({ token, itemId: item.id }).unwrap(), t('group.cancelled'))}
        >
          {t('group.cancel')}
        </button>
      )}
      <p className="group-gift__note muted">{t('noMoneyMoves')}</p>
    </section>
  );
}
