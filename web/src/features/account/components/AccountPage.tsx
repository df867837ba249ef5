import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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

/** What an account holds: the page's "what we keep", and afterwards "what was removed". */
function useKept(): string[] {
  const { t } = useTranslation('account');
  return t('kept.items', { returnObjects: true }) as string[];
}

interface AccountPageProps {
  /** Signs the user out once the account is deleted (the app passes the auth feature's logout). */
  onSignOut: () => Promise<void>;
}

function Deleted() {
  const { t } = useTranslation('account');
  const kept = useKept();
  return (
    <div className="account-page">
      <section className="account-card" aria-labelledby="deleted-title">
        <h1 id="deleted-title">{t('deleted.title')}</h1>
        <p>{t('deleted.text')}</p>
        <ul>
          {kept.map((k) => (
            <li key={k}>{k}</li>
          ))}
        </ul>
        <p className="muted">{t('deleted.after')}</p>
        <Link to="/" className="button button--primary">
          {t('deleted.home')}
        </Link>
      </section>
    </div>
  );
}

/** /account: what we keep, a download of it, and deleting the account for good. */
export default function AccountPage({ onSignOut }: AccountPageProps) {
  const { t } = useTranslation('account');
  const kept = useKept();
  usePageTitle(t('title'));
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
        <p>{t('signInFirst')}</p>
        <Link to="/login" className="button button--primary">
          {t('logIn')}
        </Link>
      </div>
    );
  }
  if (isLoading || !account) return <PageSpinner label={t('loading')} />;

  const expected = account.email || account.uid;
  const matches = confirm.trim().toLowerCase() === expected.toLowerCase();

  async function download() {
    setDownloading(true);
    try {
      await downloadMyData();
    } catch {
      toast({ title: t('download.failed'), description: t('download.unavailable'), variant: 'destructive' });
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
      <h1>{t('title')}</h1>
      <section className="account-card" aria-labelledby="kept-title">
        <h2 id="kept-title">{t('kept.title')}</h2>
        <p>
          {t('kept.signedInAs', {
            who: account.displayName && account.email ? `${account.displayName} (${account.email})` : account.displayName || account.email,
          })}
        </p>
        <ul>
          {kept.map((k) => (
            <li key={k}>{k}</li>
          ))}
        </ul>
        <Link to="/privacy">{t('kept.privacyLink')}</Link>
        {account.deletionPending && <p role="status">{t('kept.pending')}</p>}
      </section>
      <section className="account-card" aria-labelledby="notifications-title">
        <h2 id="notifications-title">{t('notifications.title')}</h2>
        <p>{t('notifications.text')}</p>
        <Link to="/settings/notifications">{t('notifications.link')}</Link>
      </section>
      <section className="account-card" aria-labelledby="download-title">
        <h2 id="download-title">{t('download.title')}</h2>
        <p>{t('download.text')}</p>
        <BusyButton
          className="button button--primary"
          busy={downloading}
          busyLabel={t('download.busyLabel')}
          busyText={t('download.busy')}
          onClick={() => void download()}
        >
          {t('download.button')}
        </BusyButton>
      </section>
      <section className="account-card account-card--danger" aria-labelledby="delete-title">
        <h2 id="delete-title">{t('delete.title')}</h2>
        <p>{t('delete.text')}</p>
        <TextField
          label={account.email ? t('delete.confirmEmail') : t('delete.confirmId')}
          hint={expected}
          value={confirm}
          onValue={setConfirm}
          autoComplete="off"
          error={error}
        />
        <BusyButton
          className="button button--danger-outline"
          busy={deleting}
          busyLabel={t('delete.busyLabel')}
          busyText={t('delete.busy')}
          disabled={!matches || deleting}
          onClick={() => void remove()}
        >
          {t('delete.button')}
        </BusyButton>
      </section>
    </div>
  );
}
