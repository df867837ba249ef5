import { useState } from 'react';
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
      toast({ title: 'Could not save', description: errorMessage(err), variant: 'destructive' });
    }
  }

  return (
    <li className="family-member" data-testid="family-member">
      <span className="family-member__avatar" aria-hidden="true">
        {member.displayName.slice(0, 1).toUpperCase() || '?'}
      </span>
      <span className="family-member__name">
        {member.displayName}
        {isMe && <span className="muted"> (you)</span>}
      </span>
      {member.role === 'admin' && <span className="family-badge">Admin</span>}
      {canManage && (
        <span className="family-member__actions">
          {member.role === 'member' && (
            <button
              type="button"
              className="button button--link"
              disabled={settingRole.isLoading}
              aria-label={`Make ${member.displayName} an admin`}
              onClick={() =>
                run(
                  () => setRole({ familyId: family.id, uid: member.uid, role: 'admin' }).unwrap(),
                  `${member.displayName} is now an admin`,
                )
              }
            >
              Make admin
            </button>
          )}
          <button
            type="button"
            className="button button--link"
            aria-label={`Remove ${member.displayName}`}
            onClick={() => setConfirming(true)}
          >
            Remove
          </button>
        </span>
      )}
      {confirming && (
        <ConfirmDialog
          title={`Remove ${member.displayName}?`}
          confirmLabel="Remove"
          busy={removing.isLoading}
          onCancel={() => setConfirming(false)}
          onConfirm={async () => {
            await run(() => remove({ familyId: family.id, uid: member.uid }).unwrap(), `${member.displayName} was removed`);
            setConfirming(false);
          }}
        >
          <p>
            {member.displayName} will no longer see {family.name}, its lists or its Secret Santa. A draw that included them
            is cancelled.
          </p>
        </ConfirmDialog>
      )}
    </li>
  );
}
