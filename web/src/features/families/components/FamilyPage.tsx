import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PlusIcon } from '../../../components/icons';
import { PageSpinner } from '../../../components/Spinner';
import { useAppSelector } from '../../../app/hooks';
import { useToast } from '../../../app/shell/notices';
import { errorMessage } from '../../../lib/apiError';
import { selectCurrentUser } from '../../../lib/session';
import { usePageTitle } from '../../../lib/usePageTitle';
import { useGetFamiliesQuery } from '../api';
import type { FamilySharedList, Invite } from '../types';
import { FamilyCard } from './FamilyCard';
import { NewFamilyDialog } from './NewFamilyDialog';
import './families.css';

interface Props {
  /** Shown under each shared list (the app puts how many gifts are still to buy there). */
  listExtra?: (list: FamilySharedList) => ReactNode;
}

/** /family: the caller's families, their members and shared lists, invitations and Secret Santa. */
export default function FamilyPage({ listExtra }: Props = {}) {
  const { t } = useTranslation('families');
  usePageTitle(t('page.title'));
  const me = useAppSelector(selectCurrentUser)?.id ?? '';
  const toast = useToast();
  const { data: families, error, isLoading } = useGetFamiliesQuery();
  const [creating, setCreating] = useState(false);
  // The first invitation link of a family made on this visit, shown on its card right away.
  const [firstInvites, setFirstInvites] = useState<Record<string, Invite>>({});

  if (isLoading) return <PageSpinner label={t('page.loading')} />;
  return (
    <section className="page page--narrow" aria-labelledby="families-title">
      <header className="families__header">
        <h1 id="families-title" className="page__title">
          {t('page.title')}
        </h1>
        <button type="button" className="button button--primary button--small" onClick={() => setCreating(true)}>
          <PlusIcon size={18} /> {t('page.newFamily')}
        </button>
      </header>
      <p className="muted">{t('page.intro')}</p>
      {error && <p className="notice notice--warning">{errorMessage(error)}</p>}
      {!error && families?.length === 0 && (
        <div className="card empty-state">
          <p>{t('page.empty')}</p>
        </div>
      )}
      <div className="families__list">
        {families?.map((family) => (
          <FamilyCard key={family.id} family={family} me={me} initialInvite={firstInvites[family.id]} listExtra={listExtra} />
        ))}
      </div>
      {creating && (
        <NewFamilyDialog
          onCancel={() => setCreating(false)}
          onCreated={(family) => {
            setFirstInvites((all) => ({ ...all, [family.id]: family.invite }));
            setCreating(false);
            toast({ title: t('page.created', { name: family.name }), description: t('page.createdHint') });
          }}
        />
      )}
    </section>
  );
}
