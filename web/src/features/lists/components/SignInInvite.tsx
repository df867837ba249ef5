import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { LockIcon } from '../../../components/icons';
import { rememberRedirectAfterLogin } from '../../../lib/redirectAfterLogin';

/**
 * What a signed-out visitor gets instead of claim marks and buttons: anonymous answers carry no
 * claim fields (so an owner opening their own link signed out learns nothing), and signing in
 * brings the visitor straight back to this list, where they see what is taken and can claim.
 */
export function SignInInvite({ owner }: { owner: string }) {
  const { t } = useTranslation('lists');
  const location = useLocation();
  return (
    <aside className="card shared-list__invite" aria-labelledby="shared-list-invite" data-testid="sign-in-invite">
      <h2 id="shared-list-invite" className="shared-list__invite-title">
        <LockIcon size={20} /> {t('signIn.title')}
      </h2>
      <p>{t('signIn.text', { owner })}</p>
      <Link
        to="/login"
        className="button button--primary button--block"
        onClick={() => rememberRedirectAfterLogin(location.pathname + location.search)}
      >
        {t('signIn.signIn')}
      </Link>
    </aside>
  );
}
