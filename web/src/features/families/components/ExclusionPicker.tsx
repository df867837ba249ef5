import { memberPairs, type FamilyMember } from '../types';

interface Props {
  members: readonly FamilyMember[];
  chosen: ReadonlySet<string>;
  onToggle: (key: string) => void;
  disabled?: boolean;
}

/** Pairs of members who must not draw each other (couples, say): one checkbox per pair. */
export function ExclusionPicker({ members, chosen, onToggle, disabled }: Props) {
  const pairs = memberPairs(members);
  if (pairs.length === 0) return null;
  return (
    <fieldset className="santa-exclusions">
      <legend className="santa-exclusions__legend">Who should not draw each other?</legend>
      <p className="muted">Tick a pair and neither of them gives to the other.</p>
      <ul className="santa-exclusions__list">
        {pairs.map((pair) => (
          <li key={pair.key}>
            <label className="santa-exclusions__pair">
              <input type="checkbox" checked={chosen.has(pair.key)} disabled={disabled} onChange={() => onToggle(pair.key)} />
              {pair.a.displayName} &amp; {pair.b.displayName}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
