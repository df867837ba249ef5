import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../../../../components/icons';
import type { FamilyMember } from '../../types';

interface Props {
  person: FamilyMember;
  others: readonly FamilyMember[];
  excluded: (other: FamilyMember) => boolean;
  onAdd: (uid: string) => void;
  onRemove: (uid: string) => void;
  disabled?: boolean;
}

/** One participant: a removable chip for each person they must not draw, and a picker to add one. */
export function PersonExclusions({ person, others, excluded, onAdd, onRemove, disabled }: Props) {
  const { t } = useTranslation('families');
  const selectId = useId();
  const [pick, setPick] = useState('');
  const chips = others.filter(excluded);
  const left = others.filter((o) => !excluded(o));
  // A pick that was excluded meanwhile (through a couple, say) no longer counts.
  const picked = left.some((o) => o.uid === pick) ? pick : '';

  return (
    <li className="santa-person" data-testid={`exclusions-${person.uid}`}>
      <span className="santa-person__name" id={`${selectId}-name`}>
        {person.displayName}
      </span>
      {chips.length === 0 ? (
        <span className="muted santa-person__none">{t('draw.canDrawAnyone')}</span>
      ) : (
        <ul className="santa-chips" aria-label={t('draw.mustNotDrawList', { name: person.displayName })}>
          {chips.map((other) => (
            <li key={other.uid} className="santa-chip">
              <span>{other.displayName}</span>
              <button
                type="button"
                className="santa-chip__remove"
                disabled={disabled}
                aria-label={t('draw.removeExclusion', { a: person.displayName, b: other.displayName })}
                onClick={() => onRemove(other.uid)}
              >
                <CloseIcon size={16} />
              </button>
            </li>
          ))}
        </ul>
      )}
      {left.length > 0 && (
        <div className="santa-person__add">
          <label htmlFor={selectId} className="visually-hidden">
            {t('draw.mustNotDraw', { name: person.displayName })}
          </label>
          <select id={selectId} className="input" value={picked} disabled={disabled} onChange={(e) => setPick(e.target.value)}>
            <option value="">{t('draw.mustNotDrawPlaceholder')}</option>
            {left.map((o) => (
              <option key={o.uid} value={o.uid}>
                {o.displayName}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button button--outline"
            disabled={disabled || !picked}
            aria-label={t('draw.addExclusionFor', { name: person.displayName })}
            onClick={() => {
              onAdd(picked);
              setPick('');
            }}
          >
            {t('draw.add')}
          </button>
        </div>
      )}
    </li>
  );
}
