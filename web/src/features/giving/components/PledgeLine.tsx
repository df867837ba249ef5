import { useTranslation } from 'react-i18next';
import type { ClaimPledge } from '../../../lib/giving';
import { useMoney } from './useMoney';

/** The caller's pledge on a shopping-list entry: their share, and how far the group gift is. */
export function PledgeLine({ pledge }: { pledge: ClaimPledge }) {
  const { t } = useTranslation('giving');
  const money = useMoney();
  const { groupGift, currency } = pledge;
  return (
    <p className="pledge-line" data-testid="pledge-line">
      {t('pledge.mine', { amount: money(pledge.amount, currency) })}
      {' · '}
      {groupGift.complete
        ? t('pledge.complete', { target: money(groupGift.target, currency) })
        : t('pledge.progress', { pledged: money(groupGift.pledged, currency), target: money(groupGift.target, currency) })}
    </p>
  );
}
