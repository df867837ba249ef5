import { useTranslation } from 'react-i18next';
import { useId, useMemo, useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { useToast } from '../../../app/shell/notices';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { selectCurrentUser } from '../../../lib/session';
import { useGetFamilyChoicesQuery, useUpdateListMutation } from '../api';
import { familyPeople, recipientName, type WishList } from '../types';

/**
 * A list kept for a person without an account becomes the list of their new account: a manager
 * picks them among the family (PATCH recipient). Claims made before stay secret from them until
 * each claim's own reveal date.
 */
export function HandOverPanel({ list }: { list: WishList }) {
  const { t } = useTranslation('lists');
  const toast = useToast();
  const me = useAppSelector(selectCurrentUser)?.id;
  const { data: families } = useGetFamilyChoicesQuery();
  const [update, { isLoading }] = useUpdateListMutation();
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState<string>();
  const selectId = useId();
  const people = useMemo(
    () => familyPeople(families ?? [], me).filter((p) => !list.managers.some((m) => m.uid === p.uid)),
    [families, me, list.managers],
  );
  const person = recipientName(list.recipient);
  if (list.recipient.kind !== 'person' || !person) return null;
  const member = people.find((p) => p.uid === chosen);

  async function handOver() {
    if (!member || !window.confirm(t('handOver.confirm', { person, member: member.displayName }))) return;
    setError(undefined);
    try {
      await update({ id: list.id, recipient: { kind: 'member', uid: member.uid } }).unwrap();
      toast({ title: t('handOver.done', { member: member.displayName }) });
    } catch (err) {
      setError(fieldErrors(err).recipient ?? errorMessage(err));
    }
  }

  return (
    <section className="list-handover" aria-labelledby={`${selectId}-heading`}>
      <h3 id={`${selectId}-heading`} className="list-settings__heading">
        {t('handOver.heading')}
      </h3>
      <p className="muted">{t('handOver.hint', { person })}</p>
      {families && people.length === 0 ? (
        <p className="muted">{t('handOver.nobody')}</p>
      ) : (
        <div className="list-managers__add">
          <label htmlFor={selectId} className="field__label">
            {t('handOver.label', { person })}
          </label>
          <div className="list-managers__row">
            <select id={selectId} className="input select" value={chosen} onChange={(e) => setChosen(e.target.value)} disabled={isLoading}>
              <option value="">{t('handOver.choose')}</option>
              {people.map((p) => (
                <option key={p.uid} value={p.uid}>
                  {p.displayName}
                </option>
              ))}
            </select>
          </div>
          <button type="button" className="button button--outline button--small" disabled={isLoading || !member} onClick={() => void handOver()}>
            {member ? t('handOver.button', { member: member.displayName }) : t('handOver.buttonEmpty')}
          </button>
        </div>
      )}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
