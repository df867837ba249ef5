import { useTranslation } from 'react-i18next';
import { pairKey, type FamilyMember } from '../../types';
import { CouplesShortcut } from './CouplesShortcut';
import { PersonExclusions } from './PersonExclusions';
import './exclusions.css';

interface Props {
  members: readonly FamilyMember[];
  /** The excluded pairs, as pair keys (an exclusion works both ways: the API's pairs are unordered). */
  chosen: ReadonlySet<string>;
  onAdd: (uidA: string, uidB: string) => void;
  onRemove: (uidA: string, uidB: string) => void;
  disabled?: boolean;
}

/** For each participant, chips of whom they must not draw; and couples, named once for both ways. */
export function ExclusionPicker({ members, chosen, onAdd, onRemove, disabled }: Props) {
  const { t } = useTranslation('families');
  if (members.length < 2) return null;
  return (
    <fieldset className="santa-exclusions" data-testid="exclusion-picker">
      <legend className="santa-exclusions__legend">{t('draw.exclusions')}</legend>
      <p className="muted">{t('draw.exclusionsHint')}</p>
      <CouplesShortcut members={members} chosen={chosen} onAdd={onAdd} disabled={disabled} />
      <ul className="santa-exclusions__people">
        {members.map((person) => (
          <PersonExclusions
            key={person.uid}
            person={person}
            others={members.filter((m) => m.uid !== person.uid)}
            excluded={(other) => chosen.has(pairKey(person.uid, other.uid))}
            onAdd={(other) => onAdd(person.uid, other)}
            onRemove={(other) => onRemove(person.uid, other)}
            disabled={disabled}
          />
        ))}
      </ul>
    </fieldset>
  );
}
