import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { Dialog } from '../../../components/Dialog';
import { LockIcon } from '../../../components/icons';
import { PageSpinner } from '../../../components/Spinner';
import { rememberRedirectAfterLogin } from '../../../lib/redirectAfterLogin';
import { selectAuthLoading, selectCurrentUser } from '../../../lib/session';

/** Guards /wishlist and /text-prompt: spinner while auth loads, then the sign-in dialog. */
export function RequireAuth() {
  const user = useAppSelector(selectCurrentUser);
  const loading = useAppSelector(selectAuthLoading);
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation('auth');

  if (loading) return <PageSpinner label={t('guard.checking')} />;
  if (user) return <Outlet />;

  return (
    <Dialog
      title={t('guard.title')}
      icon={<LockIcon size={28} />}
      onClose={() => navigate('/')}
      actions={
        <>
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              rememberRedirectAfterLogin(location.pathname + location.search);
              navigate('/firebase-login');
            }}
          >
            {t('guard.logIn')}
          </button>
          <button type="button" className="button button--outline" onClick={() => navigate('/')}>
            {t('guard.home')}
          </button>
        </>
      }
    >
      <p>{t('guard.text')}</p>
    </Dialog>
  );
}
