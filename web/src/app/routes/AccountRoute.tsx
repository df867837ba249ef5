import AccountPage from '../../features/account/components/AccountPage';
import { useAuthActions } from '../../features/auth/useAuthActions';

/** /account: the account feature's page, signing out through the auth feature. */
export default function AccountRoute() {
  const { logout } = useAuthActions();
  return <AccountPage onSignOut={logout} />;
}
