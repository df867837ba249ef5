import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { PageSpinner } from '../../../components/Spinner';
import { useAppSelector } from '../../../app/hooks';
import { useToast } from '../../../app/shell/notices';
import { errorMessage } from '../../../lib/apiError';
import { rememberRedirectAfterLogin } from '../../../lib/redirectAfterLogin';
import { selectCurrentUser } from '../../../lib/session';
import { usePageTitle } from '../../../lib/usePageTitle';
import { useAcceptInviteMutation, useGetInviteQuery } from '../api';
import { errorCode, isNotFound } from '../types';
import { offerPush } from '../../../lib/push';
import './families.css';

/** /join/:token: who invited you to which family; sign in (and come back here) if needed, then join. */
export default function JoinPage() {
  const { t } = useTranslation('families');
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const toast = useToast();
  const user = useAppSelector(selectCurrentUser);
  const authReady = useAppSelector((s) => s.auth.initialized && !s.auth.loading);
  const { data, error, isLoading } = useGetInviteQuery(token, { skip: !token });
  const [accept, accepting] = useAcceptInviteMutation();
  const [joinError, setJoinError] = useState<string>();
  usePageTitle(data ? t('join.pageTitle', { name: data.familyName }) : t('join.title'));

  if (isLoading || !authReady) return <PageSpinner label={t('join.loading')} />;
  if (error || !data) {
    return (
      <section className="page page--narrow" aria-labelledby="join-title">
        <div className="card empty-state">
          <h1 id="join-title" className="page__title">
            {isNotFound(error) ? t('join.gone') : t('join.failed')}
          </h1>
          <p>{isNotFound(error) ? t('join.goneHint') : errorMessage(error)}</p>
          <Link to="/" className="button button--primary">
            {t('join.home')}
          </Link>
        </div>
      </section>
    );
  }

  async function join() {
    try {
      const family = await accept(token).unwrap();
      toast({ title: t('join.welcome', { name: family.name }) });
      navigate('/family', { replace: true });
      // Now there is something to be told of: offer notifications.
      offerPush('joined');
    } catch (err) {
      // An email invitation is personal; an invitation revoked meanwhile, or older than the
      // caller's removal from the family, does not exist for them.
      if (errorCode(err) === 'invite_for_someone_else') setJoinError(t('join.forSomeoneElse', { email: user?.email ?? '' }));
      else if (isNotFound(err)) setJoinError(`${t('join.gone')}. ${t('join.goneHint')}`);
      else setJoinError(errorMessage(err));
    }
  }

  return (
    <section className="page page--narrow" aria-labelledby="join-title">
      <div className="card join-card">
        <p className="muted">{t('join.invitedBy', { name: data.invitedBy })}</p>
        <h1 id="join-title" className="page__title">
          {data.familyName}
        </h1>
        <p>{t('join.about')}</p>
        {joinError && (
          <p className="notice notice--warning" role="alert">
            {joinError}
          </p>
        )}
        {user ? (
          <button type="button" className="button button--primary button--block" disabled={accepting.isLoading} onClick={join}>
            {t('join.join', { name: data.familyName })}
          </button>
        ) : (
          <>
            <Link
              to="/login"
              className="button button--primary button--block"
              onClick={() => rememberRedirectAfterLogin(`/join/${token}`)}
            >
              {t('join.signIn')}
            </Link>
            <p className="muted">{t('join.comeBack')}</p>
          </>
        )}
      </div>
    </section>
  );
}
