import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../../app/shell/notices';
import { errorMessage } from '../../../lib/apiError';
import { useRemoveMemberMutation, useSetMemberRoleMutation } from '../api';
import type { Family, FamilyMember } from '../types';
import { ConfirmDialog } from './ConfirmDialog';

interface Props {
  family: Family;
  member: FamilyMember;
  /** The signed-in user's uid. */
  me: string;
}

/** One member: name and role; an admin can make them an admin or remove them (after asking). */
export function MemberRow({ family, member, me }: Props) {
  const { t } = useTranslation('families');
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const [remove, removing] = useRemoveMemberMutation();
  const [setRole, settingRole] = useSetMemberRoleMutation();
  const isMe = member.uid === me;
  const canManage = family.role === 'admin' && !isMe;

  async function run(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      toast({ title: done });
    } catch (err) {
      toast({ title: t('saveFailed'), description: errorMessage(err), variant: 'destructive' });
    }
  }

  return (
    <li className="family-member" data-testid="family-member">
      <span className="family-member__avatar" aria-hidden="true">
        {member.displayName.slice(0, 1).toUpperCase() || '?'}
      </span>
      <span className="family-member__name">
        {member.displayName}
        {isMe && <span className="muted"> {t('member.you')}</span>}
      </span>
      {member.role === 'admin' && <span className="family-badge">{t('member.admin')}</span>}
      {canManage && (
        <span className="family-member__actions">
          {member.role === 'member' && (
            <button
              type="button"
              className="button button--link"
              disabled={settingRole.isLoading}
              aria-label={t('member.makeAdminLabel', { name: member.displayName })}
              onClick={() =>
                run(
                  () => setRole({ familyId: family.id, uid: member.uid, role: 'admin' }).unwrap(),
                  t('member.madeAdmin', { name: member.displayName }),
                )
              }
            >
              {t('member.makeAdmin')}
            </button>
          )}
          <button
            type="button"
            className="button button--link"
            aria-label={t('member.removeLabel', { name: member.displayName })}
            onClick={() => setConfirming(true)}
          >
            {t('member.remove')}
          </button>
        </span>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('member.removeTitle', { name: member.displayName })}
          confirmLabel={t('member.remove')}
          busy={removing.isLoading}
          onCancel={() => setConfirming(false)}
          onConfirm={async () => {
            await run(() => remove({ familyId: family.id, uid: member.uid }).unwrap(), t('member.removed', { name: member.displayName }));
            setConfirming(false);
          }}
        >
          <p>{t('member.removeText', { name: member.displayName, family: family.name })}</p>
        </ConfirmDialog>
      )}
    </li>
  );
}
