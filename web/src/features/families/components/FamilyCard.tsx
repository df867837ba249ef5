import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { useToast } from '../../../app/shell/notices';
import { errorMessage } from '../../../lib/apiError';
import { useRemoveMemberMutation } from '../api';
import { adminsFirst, isLastAdmin, type Family, type FamilySharedList, type Invite } from '../types';
import { ConfirmDialog } from './ConfirmDialog';
import { InvitePanel } from './InvitePanel';
import { MemberRow } from './MemberRow';
import { FamilyListRow } from './FamilyListRow';

interface Props {
  family: Family;
  me: string;
  initialInvite?: Invite;
  /** Shown under each shared list (the app puts how many gifts are still to buy there). */
  listExtra?: (list: FamilySharedList) => ReactNode;
}

function leaveText(t: TFunction<'families'>, family: Family, me: string): string {
  if (family.members.length === 1) return t('card.leaveOnly', { name: family.name });
  if (isLastAdmin(family, me)) return t('card.leaveLastAdmin');
  return t('card.leaveText', { name: family.name });
}

/** One family: the lists its members shared with it first (what givers come for), its members, invitations (admins), Secret Santa, leaving. */
export function FamilyCard({ family, me, initialInvite, listExtra }: Props) {
  const { t } = useTranslation('families');
  const toast = useToast();
  const [leaving, setLeaving] = useState(false);
  const [remove, removing] = useRemoveMemberMutation();
  const headingId = `family-${family.id}`;
  const blocked = isLastAdmin(family, me);

  async function leave() {
    try {
      await remove({ familyId: family.id, uid: me }).unwrap();
      toast({ title: t('card.left', { name: family.name }) });
    } catch (err) {
      toast({ title: t('card.leaveFailed'), description: errorMessage(err), variant: 'destructive' });
      setLeaving(false);
    }
  }

  return (
    <section className="card family-card" aria-labelledby={headingId} data-testid="family-card">
      <header className="family-card__header">
        <h2 id={headingId} className="family-card__title">
          {family.name}
        </h2>
        <span className="family-badge">{family.role === 'admin' ? t('card.youAdmin') : t('card.member')}</span>
      </header>

      <h3 className="family-card__heading">{t('card.lists')}</h3>
      {family.lists.length === 0 ? (
        <p className="muted">{t('card.noLists', { name: family.name })}</p>
      ) : (
        <ul className="family-card__lists">
          {family.lists.map((list) => (
            <li key={list.listId}>
              <FamilyListRow list={list} me={me} extra={listExtra?.(list)} />
            </li>
          ))}
        </ul>
      )}

      <h3 className="family-card__heading">{t('card.members', { n: family.members.length })}</h3>
      <ul className="family-card__members">
        {adminsFirst(family.members).map((member) => (
          <MemberRow key={member.uid} family={family} member={member} me={me} />
        ))}
      </ul>

      {family.role === 'admin' && <InvitePanel family={family} initialInvite={initialInvite} />}

      <div className="button-row family-card__footer">
        <Link to={`/family/${family.id}/secret-santa`} className="button button--primary button--small">
          {t('card.secretSanta')}
        </Link>
        <button type="button" className="button button--danger-outline button--small" onClick={() => setLeaving(true)}>
          {t('card.leave', { name: family.name })}
        </button>
      </div>

      {leaving && (
        <ConfirmDialog
          title={t('card.leaveTitle', { name: family.name })}
          confirmLabel={t('card.leaveConfirm')}
          busy={removing.isLoading || blocked}
          onCancel={() => setLeaving(false)}
          onConfirm={leave}
        >
          <p>{leaveText(t, family, me)}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
