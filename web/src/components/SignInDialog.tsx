import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { rememberRedirectAfterLogin } from '../lib/redirectAfterLogin';
import { Dialog } from './Dialog';
import { LockIcon } from './icons';

interface Props {
  title: string;
  /** The sign-in link's text and the other button's. */
  signIn: string;
  cancel: string;
  onCancel: () => void;
  children: ReactNode;
}

/** Asks a signed-out visitor to sign in; after signing in they come straight back to this screen. */
export function SignInDialog({ title, signIn, cancel, onCancel, children }: Props) {
  const location = useLocation();
  return (
    <Dialog
      title={title}
      icon={<LockIcon size={28} />}
      onClose={onCancel}
      actions={
        <>
          <Link
            to="/login"
            className="button button--primary button--block"
            onClick={() => rememberRedirectAfterLogin(location.pathname + location.search)}
          >
            {signIn}
          </Link>
          <button type="button" className="button button--outline button--block" onClick={onCancel}>
            {cancel}
          </button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
