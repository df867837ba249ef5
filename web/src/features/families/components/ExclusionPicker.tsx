import { useTranslation } from 'react-i18next';
import { memberPairs, type FamilyMember } from '../types';

interface Props {
  members: readonly FamilyMember[];
  chosen: ReadonlySet<string>;
  onToggle: (key: string) => void;
  disabled?: boolean;
}

/** Pairs of members who must not draw each other (couples, say): one checkbox per pair. */
export function ExclusionPicker({ members, chosen, onToggle, disabled }: Props) {
  const { t } = useTranslation('families');
  const pairs = memberPairs(members);
  if (pairs.length === 0) return null;
  return (
    <fieldset className="santa-exclusions">
      <legend className="santa-exclusions__legend">{t('draw.exclusions')}</legend>
      <p className="muted">{t('draw.exclusionsHint')}</p>
      <ul className="santa-exclusions__list">
        {pairs.map((pair) => (
          <li key={pair.key}>
            <label className="santa-exclusions__pair">
              <input type="checkbox" checked={chosen.has(pair.key)} disabled={disabled} onChange={() => onToggle(pair.key)} />
              {t('draw.pair', { a: pair.a.displayName, b: pair.b.displayName })}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
