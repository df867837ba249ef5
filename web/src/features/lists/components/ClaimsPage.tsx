import { useListName } from '../../../lib/listName';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { GiftIcon } from '../../../components/icons';
import { PageSpinner } from '../../../components/Spinner';
import { useToast } from '../../../app/shell/notices';
import { errorMessage } from '../../../lib/apiError';
import { useFormat } from '../../../lib/format';
import { usePageTitle } from '../../../lib/usePageTitle';
import { useClaimItemMutation, useGetClaimsQuery } from '../api';
import type { ClaimEntry } from '../types';
import { useShoppingListGiving } from '../givingSlots';
import './familyLists.css';

/** One person the caller gives to, and what they are getting them. */
export interface PersonGroup {
  key: string;
  person: string;
  entries: ClaimEntry[];
}

/**
 * The caller's claims, one group per person they give to, in first-seen order: by the
 * recipient's key (two people of the same name stay apart), or by the list's owner for an answer
 * without a recipient.
 */
export function groupByPerson(entries: readonly ClaimEntry[]): PersonGroup[] {
  const groups = new Map<string, PersonGroup>();
  for (const entry of entries) {
    const key = entry.recipient?.key ?? `owner:${entry.list.ownerName}`;
    const group = groups.get(key) ?? { key, person: entry.recipient?.displayName ?? entry.list.ownerName, entries: [] };
    group.entries.push(entry);
    groups.set(key, group);
  }
  return [...groups.values()];
}

function ClaimRow({ entry }: { entry: ClaimEntry }) {
  const [claim, { isLoading }] = useClaimItemMutation();
  const giving = useShoppingListGiving();
  // Only pledged towards a group gift: nothing of the caller's own to mark bought.
  const pledgeOnly = entry.quantity === 0;
  const toast = useToast();
  const { t } = useTranslation('lists');
  const format = useFormat();
  const listName = useListName();
  const { item, list } = entry;
  async function toggle(purchased: boolean) {
    if (!list.token) return;
    try {
      await claim({ token: list.token, itemId: item.id, quantity: entry.quantity, purchased }).unwrap();
    } catch (err) {
      toast({ title: t('claims.couldNotSave'), description: errorMessage(err), variant: 'destructive' });
    }
  }
  return (
    <li className={`claim-row${entry.purchased ? ' claim-row--done' : ''}`} data-testid="claim-row">
      <label className="claim-row__check" hidden={pledgeOnly}>
        <input
          type="checkbox"
          checked={entry.purchased}
          // A revoked link leaves the claim readable but no longer changeable.
          disabled={isLoading || !list.token || pledgeOnly}
          onChange={(e) => toggle(e.target.checked)}
          aria-label={t('claims.purchasedLabel', { name: item.name })}
        />
      </label>
      {item.imageUrl ? <img className="claim-row__img" src={item.imageUrl} alt="" loading="lazy" /> : <span className="claim-row__img" />}
      <div className="claim-row__text">
        <p className="claim-row__name">
          {item.name}
          {entry.quantity > 1 && <span className="muted"> × {entry.quantity}</span>}
        </p>
        <p className="muted">
          {item.price ? `${format.price(item.price)} · ` : ''}
          {list.token ? <Link to={`/l/${list.token}`}>{listName(list.name, list.ownerName)}</Link> : listName(list.name, list.ownerName)}
        </p>
        {giving?.entry(entry)}
        {!list.token && (
          // The owner replaced or turned off the link this claim was made through: no link to
          // follow (never another list's), but the gift stays on the shopping list.
          <p className="muted claim-row__gone">{t('claims.linkGone', { person: list.ownerName })}</p>
        )}
      </div>
    </li>
  );
}

/** /claims: "My gift shopping list", what the caller promised to buy, grouped by person. */
export default function ClaimsPage() {
  const { t } = useTranslation('lists');
  usePageTitle(t('claims.title'));
  const { data, error, isLoading } = useGetClaimsQuery();
  const giving = useShoppingListGiving();
  if (isLoading) return <PageSpinner label={t('claims.loading')} />;
  const groups = groupByPerson(data ?? []);
  return (
    <section className="page page--narrow" aria-labelledby="claims-title">
      <h1 id="claims-title" className="page__title">
        {t('claims.title')}
      </h1>
      {giving?.header()}
      {error && <p className="notice notice--warning">{errorMessage(error)}</p>}
      {!error && groups.length === 0 && (
        <div className="card empty-state">
          <span className="empty-state__icon" aria-hidden="true">
            <GiftIcon size={44} />
          </span>
          <p>{t('claims.empty')}</p>
        </div>
      )}
      {groups.map(({ key, person, entries }, index) => (
        // The heading's id by position: a name has spaces, which aria-labelledby reads as two ids.
        <section key={key} className="card claims-group" aria-labelledby={`claims-group-${index}`}>
          <h2 id={`claims-group-${index}`} className="claims-group__title">
            {t('claims.for', { person })}
          </h2>
          {/* A pledge alone is nothing of the caller's own to buy. */}
          {entries.some((e) => e.quantity > 0) && (
            <p className="muted">
              {t('claims.bought', {
                done: entries.filter((e) => e.quantity > 0 && e.purchased).length,
                total: entries.filter((e) => e.quantity > 0).length,
              })}
            </p>
          )}
          {entries[0].recipient && giving?.person(entries[0].recipient)}
          <ul className="claims-group__list">
            {entries.map((entry) => (
              <ClaimRow key={entry.item.id} entry={entry} />
            ))}
          </ul>
        </section>
      ))}
      {giving?.footer((data ?? []).flatMap((e) => (e.recipient ? [e.recipient.key] : [])))}
    </section>
  );
}
