import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PageSpinner } from '../../../components/Spinner';
import { useAppSelector } from '../../../app/hooks';
import { useToast } from '../../../app/shell/notices';
import { errorMessage } from '../../../lib/apiError';
import { rememberRedirectAfterLogin } from '../../../lib/redirectAfterLogin';
import { selectCurrentUser } from '../../../lib/session';
import { usePageTitle } from '../../../lib/usePageTitle';
import { useAcceptInviteMutation, useGetInviteQuery } from '../api';
import { isNotFound } from '../types';
import './families.css';

/** /join/:token: who invited you to which family; sign in (and come back here) if needed, then join. */
export default function JoinPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const toast = useToast();
  const user = useAppSelector(selectCurrentUser);
  const authReady = useAppSelector((s) => s.auth.initialized && !s.auth.loading);
  const { data, error, isLoading } = useGetInviteQuery(token, { skip: !token });
  const [accept, accepting] = useAcceptInviteMutation();
  const [joinError, setJoinError] = useState<string>();
  usePageTitle(data ? `Join ${data.familyName}` : 'A family invitation');

  if (isLoading || !authReady) return <PageSpinner label="Opening the invitation" />;
  if (error || !data) {
    return (
      <section className="page page--narrow" aria-labelledby="join-title">
        <div className="card empty-state">
          <h1 id="join-title" className="page__title">
            {isNotFound(error) ? 'This invitation no longer works' : 'Could not open the invitation'}
          </h1>
          <p>{isNotFound(error) ? 'Invitations last 7 days. Ask for a new link.' : errorMessage(error)}</p>
          <Link to="/" className="button button--primary">
            Go home
          </Link>
        </div>
      </section>
    );
  }

  async function join() {
    try {
      const family = await accept(token).unwrap();
      toast({ title: `Welcome to ${family.name}` });
      navigate('/family', { replace: true });
    } catch (err) {
      setJoinError(errorMessage(err));
    }
  }

  return (
    <section className="page page--narrow" aria-labelledby="join-title">
      <div className="card join-card">
        <p className="muted">{data.invitedBy} invited you to join</p>
        <h1 id="join-title" className="page__title">
          {data.familyName}
        </h1>
        <p>Family members see each other&apos;s wishlists in one place, claim gifts without spoiling the surprise and draw Secret Santa names.</p>
        {joinError && (
          <p className="notice notice--warning" role="alert">
            {joinError}
          </p>
        )}
        {user ? (
          <button type="button" className="button button--primary button--block" disabled={accepting.isLoading} onClick={join}>
            Join {data.familyName}
          </button>
        ) : (
          <>
            <Link
              to="/login"
              className="button button--primary button--block"
              onClick={() => rememberRedirectAfterLogin(`/join/${token}`)}
            >
              Sign in or sign up to join
            </Link>
            <p className="muted">You will come straight back here.</p>
          </>
        )}
      </div>
    </section>
  );
}
