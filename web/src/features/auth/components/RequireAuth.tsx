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

  if (loading) return <PageSpinner label="Checking sign-in" />;
  if (user) return <Outlet />;

  return (
    <Dialog
      title="Authentication Required"
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
            Log In Now
          </button>
          <button type="button" className="button button--outline" onClick={() => navigate('/')}>
            Back to Home
          </button>
        </>
      }
    >
      <p>You need to log in to access this page.</p>
    </Dialog>
  );
}
