import { useState } from 'react';
import { Link } from 'react-router';
import { BusyButton } from '../../../components/BusyButton';
import { TextField } from '../../../components/Field';
import { PageSpinner } from '../../../components/Spinner';
import { useToast } from '../../../app/shell/notices';
import { useAppSelector } from '../../../app/hooks';
import { errorMessage } from '../../../lib/apiError';
import { selectCurrentUser } from '../../../lib/session';
import { usePageTitle } from '../../../lib/usePageTitle';
import { downloadMyData, useDeleteAccountMutation, useGetAccountQuery } from '../api';
import './account.css';

/** What an account holds, in the words the page uses for "what we keep" and "what was removed". */
export const KEPT = [
  'Your wish lists and the items on them, with their photos',
  'Share links to your lists, and the gifts you promised to give on other lists',
  'Your families, their invitations and Secret Santa draws',
  'Your notifications',
  'Your sign-in account (email and name)',
];

interface AccountPageProps {
  /** Signs the user out once the account is deleted (the app passes the auth feature's logout). */
  onSignOut: () => Promise<void>;
}

function Deleted() {
  return (
    <div className="account-page">
      <section className="account-card" aria-labelledby="deleted-title">
        <h1 id="deleted-title">Your account was deleted</h1>
        <p>You are signed out. We removed, from every part of Santa Wishlist:</p>
        <ul>
          {KEPT.map((k) => (
            <li key={k}>{k}</li>
          ))}
        </ul>
        <p className="muted">
          The units you had promised on other people&apos;s lists are free again. We keep only a record that an account
          was deleted, and when.
        </p>
        <Link to="/" className="button button--primary">
          Back to the start
        </Link>
      </section>
    </div>
  );
}

/** /account: what we keep, a download of it, and deleting the account for good. */
export default function AccountPage({ onSignOut }: AccountPageProps) {
  usePageTitle('My account');
  const user = useAppSelector(selectCurrentUser);
  const [deleted, setDeleted] = useState(false);
  const { data: account, isLoading } = useGetAccountQuery(undefined, { skip: !user || deleted });
  const [deleteAccount, { isLoading: deleting }] = useDeleteAccountMutation();
  const [downloading, setDownloading] = useState(false);
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string>();
  const toast = useToast();

  if (deleted) return <Deleted />;
  if (!user) {
    return (
      <div className="account-page">
        <p>
          <Link to="/login">Log in</Link> to see your account.
        </p>
      </div>
    );
  }
  if (isLoading || !account) return <PageSpinner label="Loading your account" />;

  const expected = account.email || account.uid;
  const matches = confirm.trim().toLowerCase() === expected.toLowerCase();

  async function download() {
    setDownloading(true);
    try {
      await downloadMyData();
    } catch (err) {
      toast({ title: 'Download failed', description: errorMessage(err), variant: 'destructive' });
    } finally {
      setDownloading(false);
    }
  }

  async function remove() {
    setError(undefined);
    try {
      await deleteAccount(confirm).unwrap();
      setDeleted(true);
      await onSignOut();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <div className="account-page">
      <h1>My account</h1>
      <section className="account-card" aria-labelledby="kept-title">
        <h2 id="kept-title">What we keep</h2>
        <p>
          Signed in as <strong>{account.displayName || account.email}</strong>
          {account.displayName && account.email ? ` (${account.email})` : ''}.
        </p>
        <ul>
          {KEPT.map((k) => (
            <li key={k}>{k}</li>
          ))}
        </ul>
        {account.deletionPending && <p role="status">Your account is being deleted.</p>}
      </section>
      <section className="account-card" aria-labelledby="download-title">
        <h2 id="download-title">Download my data</h2>
        <p>A ZIP file with your lists and items, their photos, the gifts you promised, your families and notifications.</p>
        <BusyButton
          className="button button--primary"
          busy={downloading}
          busyLabel="Preparing your data"
          busyText="Preparing..."
          onClick={() => void download()}
        >
          Download my data
        </BusyButton>
      </section>
      <section className="account-card account-card--danger" aria-labelledby="delete-title">
        <h2 id="delete-title">Delete my account</h2>
        <p>
          This removes everything listed above, everywhere, and cannot be undone. Gifts you promised become free for others
          again. Download your data first if you want to keep a copy.
        </p>
        <TextField
          label={account.email ? 'Type your email to confirm' : 'Type your account id to confirm'}
          hint={expected}
          value={confirm}
          onValue={setConfirm}
          autoComplete="off"
          error={error}
        />
        <BusyButton
          className="button button--danger-outline"
          busy={deleting}
          busyLabel="Deleting your account"
          busyText="Deleting..."
          disabled={!matches || deleting}
          onClick={() => void remove()}
        >
          Delete my account
        </BusyButton>
      </section>
    </div>
  );
}
