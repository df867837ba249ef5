import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, TextField } from '../../../components/Field';
import { useToast } from '../../../app/shell/notices';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { useFormat } from '../../../lib/format';
import { useListName } from '../../../lib/listName';
import { selectCurrentUser } from '../../../lib/session';
import { useAppSelector } from '../../../app/hooks';
import { useGetFamilyInvitesQuery, useInviteToFamilyMutation, useRevokeInviteMutation } from '../api';
import { canWebShare, useShareLink } from '../hooks/useShareLink';
import { absoluteUrl, type Family, type Invite, type OpenInvite } from '../types';

interface Props {
  family: Family;
  /** The link made with the family, shown until a new one is made. */
  initialInvite?: Invite;
}

/**
 * For admins: an invitation link to copy or share, an invitation by email, and the invitations
 * still open, each with "Revoke". A family has one link at a time: "New link" ends the old one.
 */
export function InvitePanel({ family, initialInvite }: Props) {
  const { t } = useTranslation('families');
  const format = useFormat();
  const toast = useToast();
  const { copy, share } = useShareLink();
  const [invite, setInvite] = useState<Invite | undefined>(initialInvite);
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string>();
  const [makeInvite, making] = useInviteToFamilyMutation();
  const open = useGetFamilyInvitesQuery(family.id);
  const [revoke, revoking] = useRevokeInviteMutation();
  const url = invite ? absoluteUrl(invite.url) : null;
  const listName = useListName();
  const me = useAppSelector(selectCurrentUser)?.id;
  // The admin's own lists shared with the family: sent with the invitation, the list's page offers to join.
  const myLists = family.lists.filter((l) => l.ownerUid === me);

  async function revokeOne(item: OpenInvite) {
    try {
      await revoke({ familyId: family.id, inviteId: item.id }).unwrap();
      // The family's only link was the one shown here: it no longer works.
      if (item.email == null) setInvite(undefined);
      toast({ title: t('invite.revoked') });
    } catch (err) {
      toast({ title: t('invite.revokeFailed'), description: errorMessage(err), variant: 'destructive' });
    }
  }

  async function newLink() {
    try {
      setInvite(await makeInvite({ familyId: family.id }).unwrap());
    } catch (err) {
      toast({ title: t('invite.linkFailed'), description: errorMessage(err), variant: 'destructive' });
    }
  }

  async function sendEmail(event: React.FormEvent) {
    event.preventDefault();
    const address = email.trim();
    if (!address) return setEmailError(t('invite.emailMissing'));
    try {
      await makeInvite({ familyId: family.id, email: address }).unwrap();
      setEmail('');
      setEmailError(undefined);
      toast({ title: t('invite.sent'), description: t('invite.sentHint', { email: address }) });
    } catch (err) {
      setEmailError(fieldErrors(err).email ?? errorMessage(err));
    }
  }

  return (
    <section className="family-invite" aria-labelledby={`invite-${family.id}`}>
      <h3 id={`invite-${family.id}`} className="family-card__heading">
        {t('invite.title')}
      </h3>
      {url && invite ? (
        <>
          <Field
            label={t('invite.link')}
            hint={`${t('invite.linkHint', { date: format.date(invite.expiresAt, { day: 'numeric', month: 'long' }) })} ${t('invite.newLinkHint')}`}
          >
            {({ id, describedBy }) => (
              <input id={id} className="input" value={url} readOnly aria-describedby={describedBy} onFocus={(e) => e.target.select()} />
            )}
          </Field>
          <div className="button-row">
            <button type="button" className="button button--primary button--small" onClick={() => copy(url)}>
              {t('invite.copy')}
            </button>
            {canWebShare() && (
              <button
                type="button"
                className="button button--outline button--small"
                onClick={() => share({ title: t('invite.shareTitle', { name: family.name }), text: t('invite.shareText', { name: family.name }), url })}
              >
                {t('invite.share')}
              </button>
            )}
            <button type="button" className="button button--outline button--small" disabled={making.isLoading} onClick={newLink}>
              {t('invite.newLink')}
            </button>
          </div>
          {invite && myLists.length > 0 && (
            <div className="family-invite__with-list">
              <p className="field__label">{t('offer.withList')}</p>
              <p className="muted">{t('offer.withListHint')}</p>
              <div className="button-row">
                {myLists.map((l) => (
                  <button
                    key={l.listId}
                    type="button"
                    className="button button--outline button--small"
                    data-testid="copy-list-with-invite"
                    onClick={() => copy(absoluteUrl(`/l/${l.token}?join=${encodeURIComponent(invite.token)}`))}
                  >
                    {t('offer.copyWithList', { list: listName(l.name) })}
                  </button>
                ))}
              </div>
            </div>
          )}
        </>
      ) : (
        <button type="button" className="button button--outline button--small" disabled={making.isLoading} onClick={newLink}>
          {t('invite.makeLink')}
        </button>
      )}
      <form className="family-invite__email" onSubmit={sendEmail} aria-label={t('invite.byEmailForm', { name: family.name })} noValidate>
        <TextField
          label={t('invite.byEmail')}
          type="email"
          autoComplete="off"
          placeholder="cleo@example.com"
          value={email}
          onValue={setEmail}
          error={emailError}
        />
        <button type="submit" className="button button--primary button--small" disabled={making.isLoading}>
          {t('invite.send')}
        </button>
      </form>
      <h4 className="family-card__heading">{t('invite.open')}</h4>
      {open.data && open.data.length === 0 && <p className="muted">{t('invite.none')}</p>}
      {open.error && <p className="notice notice--warning">{errorMessage(open.error)}</p>}
      {open.data && open.data.length > 0 && (
        <ul className="family-invites" data-testid="open-invites">
          {open.data.map((item) => {
            const who = item.email ?? t('invite.anyone');
            return (
              <li key={item.id} className="family-invites__item" data-testid="open-invite">
                <span className="family-invites__who">
                  <strong>{item.email == null ? t('invite.linkItem') : item.email}</strong>
                  <span className="muted">
                    {t('invite.until', { name: item.invitedByName, date: format.date(item.expiresAt, { day: 'numeric', month: 'long' }) })}
                  </span>
                </span>
                <button
                  type="button"
                  className="button button--danger-outline button--small"
                  aria-label={t('invite.revokeLabel', { who })}
                  disabled={revoking.isLoading}
                  onClick={() => revokeOne(item)}
                >
                  {t('invite.revoke')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
