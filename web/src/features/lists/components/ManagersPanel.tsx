import { useTranslation } from 'react-i18next';
import { useId, useMemo, useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { useToast } from '../../../app/shell/notices';
import { errorCode, errorMessage } from '../../../lib/apiError';
import { selectCurrentUser } from '../../../lib/session';
import { useAddManagerMutation, useGetFamilyChoicesQuery, useRemoveManagerMutation } from '../api';
import { familyPeople, MAX_MANAGERS, type WishList } from '../types';

interface Props {
  list: WishList;
  /** The caller left the list: it is no longer theirs to show. */
  onLeft: () => void;
}

/**
 * Who keeps a list for someone else: the managers, adding a co-manager from the caller's
 * families (at most 5 managers in all), removing one, or leaving. The server has the last word
 * (409 last_manager, recipient_cannot_manage, too_many_managers, own_list; 404 for someone who
 * shares no family), and its message is shown here.
 */
export function ManagersPanel({ list, onLeft }: Props) {
  const { t } = useTranslation('lists');
  const toast = useToast();
  const me = useAppSelector(selectCurrentUser)?.id;
  const { data: families } = useGetFamilyChoicesQuery();
  const [add, adding] = useAddManagerMutation();
  const [remove, removing] = useRemoveManagerMutation();
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState<string>();
  const selectId = useId();
  const busy = adding.isLoading || removing.isLoading;
  const recipientUid = list.recipient.kind === 'member' ? list.recipient.uid : undefined;
  const candidates = useMemo(
    () => familyPeople(families ?? [], me).filter((p) => !list.managers.some((m) => m.uid === p.uid) && p.uid !== recipientUid),
    [families, me, list.managers, recipientUid],
  );
  const full = list.managers.length >= MAX_MANAGERS;

  function explain(err: unknown): string {
    // 'own_list' means something else here than on a claim: say it in this panel's words.
    return errorCode(err) === 'own_list' ? t('managers.ownList') : errorMessage(err);
  }

  async function addChosen() {
    setError(undefined);
    const person = candidates.find((p) => p.uid === chosen);
    if (!person) return;
    try {
      await add({ id: list.id, uid: person.uid }).unwrap();
      setChosen('');
      toast({ title: t('managers.added', { name: person.displayName }) });
    } catch (err) {
      setError(explain(err));
    }
  }

  async function removeOne(uid: string, name: string) {
    setError(undefined);
    try {
      await remove({ id: list.id, uid }).unwrap();
      if (uid === me) {
        toast({ title: t('managers.left', { name: list.name }) });
        onLeft();
      } else {
        toast({ title: t('managers.removed', { name }) });
      }
    } catch (err) {
      setError(explain(err));
    }
  }

  return (
    <section className="list-managers" aria-labelledby={`${selectId}-heading`}>
      <h3 id={`${selectId}-heading`} className="list-settings__heading">
        {t('managers.heading')}
      </h3>
      <ul className="list-managers__people">
        {list.managers.map((m) => (
          <li key={m.uid} className="list-managers__person" data-testid="list-manager">
            <span>{m.uid === me ? t('managers.you', { name: m.displayName }) : m.displayName}</span>
            <button
              type="button"
              className="button button--danger-outline button--small"
              disabled={busy}
              aria-label={m.uid === me ? undefined : t('managers.removeLabel', { name: m.displayName })}
              onClick={() => void removeOne(m.uid, m.displayName)}
            >
              {m.uid === me ? t('managers.leave') : t('managers.remove')}
            </button>
          </li>
        ))}
      </ul>
      {full ? (
        <p className="muted">{t('managers.full', { max: MAX_MANAGERS })}</p>
      ) : candidates.length > 0 ? (
        <div className="list-managers__add">
          <label htmlFor={selectId} className="field__label">
            {t('managers.addLabel')}
          </label>
          <div className="list-managers__row">
            <select id={selectId} className="input select" value={chosen} onChange={(e) => setChosen(e.target.value)} disabled={busy}>
              <option value="">{t('managers.choose')}</option>
              {candidates.map((p) => (
                <option key={p.uid} value={p.uid}>
                  {p.displayName}
                </option>
              ))}
            </select>
            <button type="button" className="button button--outline button--small" disabled={busy || !chosen} onClick={() => void addChosen()}>
              {t('managers.add')}
            </button>
          </div>
        </div>
      ) : (
        families && <p className="muted">{t('managers.nobody')}</p>
      )}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
