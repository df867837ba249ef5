import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../../../app/shell/notices';
import { TextField } from '../../../../components/Field';
import { errorMessage, fieldErrors } from '../../../../lib/apiError';
import { usePlanExchangeMutation } from '../../api';
import type { ExchangePlanRequest, SecretSantaMatch } from '../../types';

interface Props {
  familyId: string;
  match: SecretSantaMatch;
  onDone: () => void;
}

/** The changed fields only: the server changes only the fields present. Empty clears. */
export function exchangeChanges(match: SecretSantaMatch, values: { exchangeOn: string; place: string; budget: string }): ExchangePlanRequest {
  const changes: ExchangePlanRequest = {};
  if (values.exchangeOn !== (match.exchangeOn ?? '')) changes.exchangeOn = values.exchangeOn || null;
  if (values.place.trim() !== match.place) changes.place = values.place.trim();
  if (values.budget.trim() !== (match.budget ?? '')) changes.budget = values.budget.trim() || null;
  return changes;
}

/** Today and a year from today, as UTC calendar days: the range the server accepts for the exchange. */
function dateRange(now = new Date()): { min: string; max: string } {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return { min: day(now), max: day(new Date(Date.UTC(now.getUTCFullYear() + 1, now.getUTCMonth(), now.getUTCDate()))) };
}

/**
 * For admins: the exchange's date, place and budget. The date picker offers the server's range,
 * but the server decides: a typed past date gets its 422, shown under the field.
 */
export function ExchangeForm({ familyId, match, onDone }: Props) {
  const { t } = useTranslation('families');
  const toast = useToast();
  const [exchangeOn, setExchangeOn] = useState(match.exchangeOn ?? '');
  const [place, setPlace] = useState(match.place);
  const [budget, setBudget] = useState(match.budget ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string>();
  const [plan, saving] = usePlanExchangeMutation();
  const changes = exchangeChanges(match, { exchangeOn, place, budget });
  const changed = Object.keys(changes).length > 0;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    setProblem(undefined);
    try {
      await plan({ familyId, ...changes }).unwrap();
      toast({ title: t('exchange.saved') });
      onDone();
    } catch (err) {
      const fields = fieldErrors(err);
      setErrors(fields);
      if (!fields.exchangeOn && !fields.place && !fields.budget) setProblem(errorMessage(err));
    }
  }

  return (
    <form className="santa-exchange__form" onSubmit={submit} noValidate aria-label={t('exchange.formLabel')}>
      <TextField
        type="date"
        label={t('exchange.date')}
        optional
        {...dateRange()}
        error={errors.exchangeOn}
        value={exchangeOn}
        onValue={setExchangeOn}
        disabled={saving.isLoading}
      />
      <TextField
        label={t('exchange.place')}
        optional
        maxLength={120}
        placeholder={t('exchange.placePlaceholder')}
        error={errors.place}
        value={place}
        onValue={setPlace}
        disabled={saving.isLoading}
      />
      <TextField
        label={t('exchange.budget')}
        optional
        maxLength={40}
        placeholder={t('draw.budgetPlaceholder')}
        error={errors.budget}
        value={budget}
        onValue={setBudget}
        disabled={saving.isLoading}
      />
      {problem && (
        <p className="notice notice--warning" role="alert">
          {problem}
        </p>
      )}
      <div className="santa-exchange__actions">
        <button type="submit" className="button button--primary" disabled={!changed || saving.isLoading}>
          {t('exchange.save')}
        </button>
        <button type="button" className="button button--link" onClick={onDone} disabled={saving.isLoading}>
          {t('exchange.cancel')}
        </button>
      </div>
    </form>
  );
}
