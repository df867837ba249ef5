import { useTranslation } from 'react-i18next';
import './GiverMarks.css';

/** Who is getting an item, as the givers of a list see it (never its recipient). */
export interface GiverClaim {
  displayName: string;
  quantity: number;
  purchased: boolean;
}

/** Who suggested an item, as its givers see it. */
export interface Suggester {
  displayName: string;
  mine: boolean;
}

/**
 * "Getting it: Ann (2), Ben ✓": on a list kept for someone else its managers see who claimed
 * what. Shown only where the server sends claims to a giver; a recipient's answers carry none.
 */
export function ClaimedBy({ claims }: { claims: readonly GiverClaim[] | undefined }) {
  const { t } = useTranslation('common');
  if (!claims || claims.length === 0) return null;
  const names = claims.map((c) => {
    const name = c.quantity > 1 ? t('givers.many', { name: c.displayName, count: c.quantity }) : c.displayName;
    return c.purchased ? t('givers.bought', { name }) : name;
  });
  return (
    <p className="giver-mark giver-mark--claims" data-testid="claimed-by">
      {t('givers.gettingIt', { names: names.join(', ') })}
    </p>
  );
}

/** "Suggested by Grandma" (or "Suggested by you"): a relative's idea, never shown to the recipient. */
export function SuggestedBy({ by }: { by: Suggester | null | undefined }) {
  const { t } = useTranslation('common');
  if (!by) return null;
  return (
    <p className="giver-mark giver-mark--suggested" data-testid="suggested-by">
      {by.mine ? t('givers.suggestedByYou') : t('givers.suggestedBy', { name: by.displayName })}
    </p>
  );
}
