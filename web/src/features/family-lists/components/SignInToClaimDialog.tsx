import { Link, useLocation } from 'react-router';
import { Dialog } from '../../../components/Dialog';
import { LockIcon } from '../../../components/icons';
import { rememberRedirectAfterLogin } from '../../../lib/redirectAfterLogin';

interface Props {
  onCancel: () => void;
}

/** Shown to a signed-out visitor who wants to claim a gift: after signing in they land back on this list. */
export function SignInToClaimDialog({ onCancel }: Props) {
  const location = useLocation();
  return (
    <Dialog
      title="Sign in to claim this gift"
      icon={<LockIcon size={28} />}
      onClose={onCancel}
      actions={
        <>
          <Link
            to="/login"
            className="button button--primary button--block"
            onClick={() => rememberRedirectAfterLogin(location.pathname + location.search)}
          >
            Sign in
          </Link>
          <button type="button" className="button button--outline button--block" onClick={onCancel}>
            Not now
          </button>
        </>
      }
    >
      <p>
        Sign in so the rest of the family can see this gift is taken. The list&apos;s owner never sees who claimed
        what before the surprise. You will come straight back to this list.
      </p>
    </Dialog>
  );
}
