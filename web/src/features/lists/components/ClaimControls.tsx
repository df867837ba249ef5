import { useTranslation } from 'react-i18next';
import { useId, useState } from 'react';
import { Spinner } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/apiError';
import { useToast } from '../../../app/shell/notices';
import { useClaimItemMutation, useGetClaimsQuery, useReleaseClaimMutation } from '../api';
import { unitsLeft, type SharedItem } from '../types';

interface Props {
  token: string;
  item: SharedItem;
}

/** Claim, change the quantity, mark purchased, or release: what a signed-in family member does with one item. */
export function ClaimControls({ token, item }: Props) {
  const mine = item.mine ?? 0;
  const max = unitsLeft(item) + mine;
  const [quantity, setQuantity] = useState(Math.max(1, Math.min(mine || 1, max)));
  // The shared view carries no "purchased" of the caller's own claim; the shopping list does.
  const { data: myClaims } = useGetClaimsQuery(undefined, { skip: mine === 0 });
  const purchased = myClaims?.find((c) => c.item.id === item.id)?.purchased ?? false;
  const [claim, claiming] = useClaimItemMutation();
  const [release, releasing] = useReleaseClaimMutation();
  const toast = useToast();
  const { t } = useTranslation('lists');
  const selectId = useId();
  const busy = claiming.isLoading || releasing.isLoading;

  async function save(units: number, bought: boolean) {
    try {
      await claim({ token, itemId: item.id, quantity: units, purchased: bought }).unwrap();
    } catch (err) {
      toast({ title: t('claim.couldNotClaim'), description: errorMessage(err), variant: 'destructive' });
    }
  }

  async function unclaim() {
    try {
      await release({ token, itemId: item.id }).unwrap();
    } catch (err) {
      toast({ title: t('claim.couldNotRelease'), description: errorMessage(err), variant: 'destructive' });
    }
  }

  if (max === 0) return null;
  return (
    <div className="claim-controls">
      {max > 1 && (
        <label htmlFor={selectId} className="claim-controls__qty">
          {t('claim.units')}
          <select id={selectId} value={quantity} onChange={(e) => setQuantity(Number(e.target.value))} disabled={busy}>
            {Array.from({ length: max }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      )}
      {mine === 0 ? (
        <button
          type="button"
          className="button button--primary button--small"
          aria-label={t('claim.getThisLabel', { name: item.name })}
          disabled={busy}
          onClick={() => save(quantity, false)}
        >
          {busy ? <Spinner size="small" label={t('claim.claiming')} /> : t('claim.getThis')}
        </button>
      ) : (
        <>
          <p className="claim-controls__mine">{t('claim.youGet', { count: mine })}</p>
          {quantity !== mine && (
            <button type="button" className="button button--primary button--small" disabled={busy} onClick={() => save(quantity, purchased)}>
              {t('claim.changeTo', { count: quantity })}
            </button>
          )}
          <label className="claim-controls__check">
            <input type="checkbox" checked={purchased} disabled={busy} onChange={(e) => save(mine, e.target.checked)} />
            {t('claim.purchased')}
          </label>
          <button
            type="button"
            className="button button--outline button--small"
            aria-label={t('claim.releaseLabel', { name: item.name })}
            disabled={busy}
            onClick={unclaim}
          >
            {t('claim.release')}
          </button>
        </>
      )}
    </div>
  );
}
