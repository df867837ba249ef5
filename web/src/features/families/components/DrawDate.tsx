import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/Field';
import { useToast } from '../../../app/shell/notices';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { usePlanSecretSantaMutation } from '../api';
import type { Family } from '../types';

/**
 * For admins, beside the budget: the date the family means to draw names on. Saved on its own
 * (drawing is a separate, confirmed step); every admin is reminded three days before it
 * unless names were drawn since it was set.
 */
export function DrawDate({ family }: { family: Family }) {
  const { t } = useTranslation('families');
  const toast = useToast();
  const [value, setValue] = useState(family.drawOn ?? '');
  const [error, setError] = useState<string>();
  const [plan, saving] = usePlanSecretSantaMutation();
  const saved = family.drawOn ?? '';

  async function save(drawOn: string | null) {
    setError(undefined);
    try {
      const result = await plan({ familyId: family.id, drawOn }).unwrap();
      setValue(result.drawOn ?? '');
      toast({ title: result.drawOn ? t('draw.dateSaved') : t('draw.dateCleared') });
    } catch (err) {
      setError(fieldErrors(err).drawOn ?? errorMessage(err));
    }
  }

  return (
    <div className="santa-draw__date" data-testid="draw-date">
      <TextField
        type="date"
        label={t('draw.drawOn')}
        optional
        hint={t('draw.drawOnHint')}
        error={error}
        value={value}
        onValue={setValue}
        disabled={saving.isLoading}
      />
      <div className="santa-draw__date-actions">
        <button
          type="button"
          className="button button--outline button--small"
          disabled={saving.isLoading || !value || value === saved}
          onClick={() => void save(value)}
        >
          {t('draw.saveDate')}
        </button>
        {saved && (
          <button type="button" className="button button--link button--small" disabled={saving.isLoading} onClick={() => void save(null)}>
            {t('draw.clearDate')}
          </button>
        )}
      </div>
    </div>
  );
}
