import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/Field';
import { useToast } from '../../../app/shell/notices';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { useDeleteBudgetMutation, useGetBudgetsQuery, useSetBudgetMutation } from '../api';
import { isCurrencyCode, minus } from '../money';
import type { BudgetEntry, GiftRecipient, Money } from '../types';
import { AmountField, useCheckAmount } from './AmountField';
import { useMoney } from './useMoney';
import './giving.css';

/**
 * What the caller spends on one person, against their private budget: spent and left when every
 * amount is in the budget's currency, otherwise each currency on its own line (the product knows
 * no exchange rates, and says so).
 */
export function PersonBudget({ recipient }: { recipient: GiftRecipient }) {
  const { data } = useGetBudgetsQuery();
  const entry = data?.find((b) => b.recipient.key === recipient.key) ?? { recipient, budget: null, totals: [], unpriced: 0 };
  return <BudgetSummary entry={entry} />;
}

/** The caller's budgets for people with nothing on the shopping list (yet). */
export function OtherBudgets({ shownKeys }: { shownKeys: readonly string[] }) {
  const { t } = useTranslation('giving');
  const { data } = useGetBudgetsQuery();
  const others = (data ?? []).filter((b) => !shownKeys.includes(b.recipient.key));
  if (others.length === 0) return null;
  return (
    <section className="card other-budgets" aria-labelledby="other-budgets-title">
      <h2 id="other-budgets-title" className="claims-group__title">
        {t('budget.others')}
      </h2>
      <ul className="other-budgets__list">
        {others.map((entry) => (
          <li key={entry.recipient.key}>
            <p className="other-budgets__name">{entry.recipient.displayName}</p>
            <BudgetSummary entry={entry} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function BudgetSummary({ entry }: { entry: BudgetEntry }) {
  const { t } = useTranslation('giving');
  const money = useMoney();
  const [editing, setEditing] = useState(false);
  const { budget, totals, unpriced } = entry;
  const single = totals.length === 1 ? totals[0] : null;
  const sameCurrency = !!budget && (totals.length === 0 || (!!single && single.currency === budget.currency));
  const spent: Money | null = budget && sameCurrency ? (single ?? { amount: '0', currency: budget.currency }) : null;
  const left = budget && spent ? minus(budget.amount, spent.amount, budget.currency) : null;
  return (
    <div className="budget" data-testid="budget">
      {budget && spent && left !== null ? (
        <p className="budget__line">
          {t('budget.spentOf', { spent: money(spent.amount, spent.currency), budget: money(budget.amount, budget.currency) })}
          {' · '}
          {left.startsWith('-') ? (
            <strong className="budget__over">{t('budget.over', { amount: money(left.slice(1), budget.currency) })}</strong>
          ) : (
            t('budget.left', { amount: money(left, budget.currency) })
          )}
        </p>
      ) : (
        <>
          {totals.length > 0 && (
            <p className="budget__line">
              {t('budget.total', { amounts: totals.map((m) => money(m.amount, m.currency)).join(' + ') })}
            </p>
          )}
          {budget && <p className="budget__line">{t('budget.is', { amount: money(budget.amount, budget.currency) })}</p>}
          {totals.length > 1 && <p className="muted budget__mixed">{t('budget.mixed')}</p>}
          {budget && totals.length === 1 && <p className="muted budget__mixed">{t('budget.otherCurrency')}</p>}
        </>
      )}
      {unpriced > 0 && <p className="muted">{t('budget.unpriced', { count: unpriced })}</p>}
      {editing ? (
        <BudgetForm entry={entry} onDone={() => setEditing(false)} />
      ) : (
        <button
          type="button"
          className="button button--outline button--small"
          aria-label={t(budget ? 'budget.editFor' : 'budget.setFor', { person: entry.recipient.displayName })}
          onClick={() => setEditing(true)}
        >
          {budget ? t('budget.edit') : t('budget.set')}
        </button>
      )}
    </div>
  );
}

function BudgetForm({ entry, onDone }: { entry: BudgetEntry; onDone: () => void }) {
  const { t } = useTranslation('giving');
  const toast = useToast();
  const check = useCheckAmount();
  const { budget, recipient } = entry;
  const [amount, setAmount] = useState(budget?.amount ?? '');
  const [currency, setCurrency] = useState(budget?.currency ?? entry.totals[0]?.currency ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [save, { isLoading: saving }] = useSetBudgetMutation();
  const [remove, { isLoading: removing }] = useDeleteBudgetMutation();
  const code = currency.trim().toUpperCase();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems: Record<string, string> = {};
    if (!isCurrencyCode(code)) problems.currency = t('start.currencyInvalid');
    const checked = check(amount, code || 'EUR');
    if (checked.error !== undefined) problems.amount = checked.error;
    setErrors(problems);
    if (Object.keys(problems).length > 0 || checked.amount === undefined) return;
    try {
      await save({ key: recipient.key, amount: checked.amount, currency: code, displayName: recipient.displayName }).unwrap();
      onDone();
    } catch (err) {
      const fields = fieldErrors(err);
      if (Object.keys(fields).length > 0) setErrors(fields);
      else toast({ title: t('couldNotSave'), description: errorMessage(err), variant: 'destructive' });
    }
  }

  async function clear() {
    try {
      await remove(recipient.key).unwrap();
      onDone();
    } catch (err) {
      toast({ title: t('couldNotSave'), description: errorMessage(err), variant: 'destructive' });
    }
  }

  return (
    <form className="budget__form giving-form" onSubmit={submit} noValidate aria-label={t('budget.formFor', { person: recipient.displayName })}>
      <AmountField label={t('budget.amount', { currency: code || '…' })} value={amount} onValue={setAmount} currency={code} error={errors.amount} />
      <TextField
        label={t('start.currency')}
        value={currency}
        onValue={setCurrency}
        error={errors.currency}
        maxLength={3}
        autoCapitalize="characters"
        autoComplete="off"
      />
      <p className="muted">{t('budget.private')}</p>
      <div className="button-row">
        <button type="submit" className="button button--primary button--small" disabled={saving}>
          {t('budget.save')}
        </button>
        {budget && (
          <button type="button" className="button button--outline button--small" disabled={removing} onClick={() => void clear()}>
            {t('budget.remove')}
          </button>
        )}
        <button type="button" className="button button--outline button--small" onClick={onDone}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}
