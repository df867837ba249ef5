import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { FamilyIcon } from '../../../components/icons';
import { useAppSelector } from '../../../app/hooks';
import { errorMessage } from '../../../lib/apiError';
import { rememberRedirectAfterLogin } from '../../../lib/redirectAfterLogin';
import { selectCurrentUser } from '../../../lib/session';
import { useAcceptInviteMutation, useGetInviteQuery } from '../api';
import { errorCode, isNotFound } from '../types';
import './families.css';

/**
 * On a shared list opened through a link its owner sent together with their family's invitation
 * (`/l/{list}?join={invitation}`, made on the Family page by an admin): "Join the Millers". It is
 * the family's own invitation, so nobody sees more than that invitation already allows; a link
 * without one offers nothing, and an invitation that no longer works shows nothing.
 */
export function JoinOffer({ token }: { token: string }) {
  const { t } = useTranslation('families');
  const location = useLocation();
  const user = useAppSelector(selectCurrentUser);
  const { data } = useGetInviteQuery(token);
  const [accept, accepting] = useAcceptInviteMutation();
  const [joined, setJoined] = useState(false);
  const [failure, setFailure] = useState<string>();
  if (!data) return null;

  async function join() {
    setFailure(undefined);
    try {
      await accept(token).unwrap();
      setJoined(true);
    } catch (err) {
      if (errorCode(err) === 'invite_for_someone_else') setFailure(t('join.forSomeoneElse', { email: user?.email ?? '' }));
      else if (isNotFound(err)) setFailure(`${t('join.gone')}. ${t('join.goneHint')}`);
      else setFailure(errorMessage(err));
    }
  }

  return (
    <aside className="card join-offer" aria-labelledby="join-offer-title" data-testid="join-offer">
      <h2 id="join-offer-title" className="join-offer__title">
        <FamilyIcon size={20} /> {joined ? t('join.welcome', { name: data.familyName }) : t('offer.title', { name: data.familyName })}
      </h2>
      <div aria-live="polite">
        {joined ? (
          <Link to="/family" className="button button--primary button--block">
            {t('offer.seeLists')}
          </Link>
        ) : (
          <p>{t('offer.text', { name: data.invitedBy, family: data.familyName })}</p>
        )}
        {failure && <p className="notice notice--warning">{failure}</p>}
      </div>
      {!joined &&
        (user ? (
          <button type="button" className="button button--primary button--block" disabled={accepting.isLoading} onClick={join}>
            {t('join.join', { name: data.familyName })}
          </button>
        ) : (
          <Link
            to="/login"
            className="button button--outline button--block"
            onClick={() => rememberRedirectAfterLogin(location.pathname + location.search)}
          >
            {t('join.signIn')}
          </Link>
        ))}
    </aside>
  );
}
