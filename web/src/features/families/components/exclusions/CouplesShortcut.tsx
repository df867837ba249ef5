import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pairKey, type FamilyMember } from '../../types';

interface Props {
  members: readonly FamilyMember[];
  chosen: ReadonlySet<string>;
  onAdd: (uidA: string, uidB: string) => void;
  disabled?: boolean;
}

/** Name a couple once: neither draws the other. */
export function CouplesShortcut({ members, chosen, onAdd, disabled }: Props) {
  const { t } = useTranslation('families');
  const id = useId();
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const ready = !!first && !!second && first !== second && !chosen.has(pairKey(first, second));

  const select = (which: 'first' | 'second', value: string, set: (v: string) => void, exclude: string) => (
    <div className="santa-couples__pick">
      <label htmlFor={`${id}-${which}`} className="field__label">
        {which === 'first' ? t('draw.couplePerson1') : t('draw.couplePerson2')}
      </label>
      <select id={`${id}-${which}`} className="input" value={value} disabled={disabled} onChange={(e) => set(e.target.value)}>
        <option value="">{t('draw.mustNotDrawPlaceholder')}</option>
        {members
          .filter((m) => m.uid !== exclude)
          .map((m) => (
            <option key={m.uid} value={m.uid}>
              {m.displayName}
            </option>
          ))}
      </select>
    </div>
  );

  return (
    <div className="santa-couples" role="group" aria-labelledby={`${id}-title`}>
      <p id={`${id}-title`} className="santa-couples__title">
        {t('draw.couples')}
      </p>
      <div className="santa-couples__row">
        {select('first', first, setFirst, second)}
        {select('second', second, setSecond, first)}
        <button
          type="button"
          className="button button--outline"
          disabled={disabled || !ready}
          onClick={() => {
            onAdd(first, second);
            setFirst('');
            setSecond('');
          }}
        >
          {t('draw.addCouple')}
        </button>
      </div>
    </div>
  );
}
