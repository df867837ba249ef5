import { Link, useLocation } from 'react-router';
import { Dialog } from '../../../components/Dialog';
import { LockIcon } from '../../../components/icons';
import { rememberRedirectAfterLogin } from '../../../lib/redirectAfterLogin';

interface Props {
  onCancel: () => void;
}

/**
 * Shown to a signed-out visitor who tries to save (SPEC 'Gift options'). The photo and its
 * details stay in this browser's storage, so after logging in they come back to the same gift.
 */
export function LoginToSaveDialog({ onCancel }: Props) {
  const location = useLocation();
  return (
    <Dialog
      title="Log in to Save Your Gift!"
      icon={<LockIcon size={28} />}
      onClose={onCancel}
      actions={
        <>
          <Link
            to="/login"
            className="button button--primary button--block"
            onClick={() => rememberRedirectAfterLogin(location.pathname + location.search)}
          >
            Login
          </Link>
          <button type="button" className="button button--outline button--block" onClick={onCancel}>
            Cancel
          </button>
        </>
      }
    >
      <p>
        Your gift is kept on this device for now, but only temporarily. Log in to save it to your wishlist and send it
        to Santa.
      </p>
    </Dialog>
  );
}
