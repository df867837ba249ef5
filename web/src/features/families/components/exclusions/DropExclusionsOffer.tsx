import { useTranslation } from 'react-i18next';
import type { FamilyMember } from '../../types';

interface Props {
  members: readonly FamilyMember[];
  /** The exclusions a draw_not_secret answer asked to drop, as the request's pairs of uids. */
  toDrop: readonly [string, string][];
  onDrop: (pair: [string, string]) => void;
}

/**
 * draw_not_secret: which exclusions would let someone work out another person's match, said in
 * the app's words with the members' names, and a button per exclusion that drops it.
 */
export function DropExclusionsOffer({ members, toDrop, onDrop }: Props) {
  const { t } = useTranslation('families');
  const names = new Map(members.map((m) => [m.uid, m.displayName]));
  const pair = ([a, b]: [string, string]) => t('draw.pair', { a: names.get(a) ?? '?', b: names.get(b) ?? '?' });
  return (
    <>
      <p>{t('draw.notSecret', { pairs: toDrop.map(pair).join(', '), count: toDrop.length })}</p>
      <div className="button-row">
        {toDrop.map((p) => (
          <button key={p.join('|')} type="button" className="button button--outline santa-drop" onClick={() => onDrop(p)}>
            {t('draw.drop', { pair: pair(p) })}
          </button>
        ))}
      </div>
    </>
  );
}
