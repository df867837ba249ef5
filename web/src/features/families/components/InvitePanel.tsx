import { useState } from 'react';
import { Field, TextField } from '../../../components/Field';
import { useToast } from '../../../app/shell/notices';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { useInviteToFamilyMutation } from '../api';
import { canWebShare, useShareLink } from '../hooks/useShareLink';
import { absoluteUrl, type Family, type Invite } from '../types';

interface Props {
  family: Family;
  /** The link made with the family, shown until a new one is made. */
  initialInvite?: Invite;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long' });

/** For admins: an invitation link to copy or share, and an invitation by email. */
export function InvitePanel({ family, initialInvite }: Props) {
  const toast = useToast();
  const { copy, share } = useShareLink();
  const [invite, setInvite] = useState<Invite | undefined>(initialInvite);
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string>();
  const [makeInvite, making] = useInviteToFamilyMutation();
  const url = invite ? absoluteUrl(invite.url) : null;

  async function newLink() {
    try {
      setInvite(await makeInvite({ familyId: family.id }).unwrap());
    } catch (err) {
      toast({ title: 'Could not make a link', description: errorMessage(err), variant: 'destructive' });
    }
  }

  async function sendEmail(event: React.FormEvent) {
    event.preventDefault();
    const address = email.trim();
    if (!address) return setEmailError('Enter an email address.');
    try {
      await makeInvite({ familyId: family.id, email: address }).unwrap();
      setEmail('');
      setEmailError(undefined);
      toast({ title: 'Invitation sent', description: `${address} will get an email with a link to join.` });
    } catch (err) {
      setEmailError(fieldErrors(err).email ?? errorMessage(err));
    }
  }

  return (
    <section className="family-invite" aria-labelledby={`invite-${family.id}`}>
      <h3 id={`invite-${family.id}`} className="family-card__heading">
        Invite someone
      </h3>
      {url && invite ? (
        <>
          <Field label="Invitation link" hint={`Anyone with it can join until ${dateFormat.format(new Date(invite.expiresAt))}.`}>
            {({ id, describedBy }) => (
              <input id={id} className="input" value={url} readOnly aria-describedby={describedBy} onFocus={(e) => e.target.select()} />
            )}
          </Field>
          <div className="button-row">
            <button type="button" className="button button--primary button--small" onClick={() => copy(url)}>
              Copy link
            </button>
            {canWebShare() && (
              <button
                type="button"
                className="button button--outline button--small"
                onClick={() => share({ title: `Join ${family.name}`, text: `Join ${family.name} on Santa Wishlist`, url })}
              >
                Share…
              </button>
            )}
            <button type="button" className="button button--outline button--small" disabled={making.isLoading} onClick={newLink}>
              New link
            </button>
          </div>
        </>
      ) : (
        <button type="button" className="button button--outline button--small" disabled={making.isLoading} onClick={newLink}>
          Make an invitation link
        </button>
      )}
      <form className="family-invite__email" onSubmit={sendEmail} aria-label={`Invite to ${family.name} by email`} noValidate>
        <TextField
          label="Invite by email"
          type="email"
          autoComplete="off"
          placeholder="cleo@example.com"
          value={email}
          onValue={setEmail}
          error={emailError}
        />
        <button type="submit" className="button button--primary button--small" disabled={making.isLoading}>
          Send invitation
        </button>
      </form>
    </section>
  );
}
