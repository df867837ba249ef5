import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/Field';
import { readAmount, type AmountProblem } from '../money';

interface Props {
  label: string;
  value: string;
  onValue: (value: string) => void;
  currency: string;
  /** The server's or the form's words, shown under the field. */
  error?: string;
  hint?: string;
  optional?: boolean;
}

/** The words for an amount the form refuses before sending (the server says the same with 422). */
export function useAmountProblem(): (problem: AmountProblem, currency: string) => string {
  const { t } = useTranslation('giving');
  return (problem, currency) => t(`amount.${problem}`, { currency });
}

/**
 * Checks a typed amount the way the server does: the decimal string to send, or the words
 * saying why not.
 */
export function useCheckAmount(): (text: string, currency: string) => { amount: string; error?: undefined } | { amount?: undefined; error: string } {
  const problemText = useAmountProblem();
  return (text, currency) => {
    const read = readAmount(text, currency);
    return 'problem' in read ? { error: problemText(read.problem, currency) } : { amount: read.amount };
  };
}

/** An amount of money typed as text (never a float), with its currency beside it. */
export function AmountField({ label, value, onValue, currency, error, hint, optional }: Props) {
  return (
    <Field label={label} error={error} hint={hint} optional={optional}>
      {({ id, describedBy, invalid }) => (
        <div className="amount-field">
          <input
            id={id}
            className="input amount-field__input"
            inputMode="decimal"
            autoComplete="off"
            aria-invalid={invalid}
            aria-describedby={describedBy}
            value={value}
            onChange={(e) => onValue(e.target.value)}
          />
          <span className="amount-field__currency" aria-hidden="true">
            {currency}
          </span>
        </div>
      )}
    </Field>
  );
}
