import { useListName } from '../listName';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { GiftIcon } from '../../../components/icons';
import { PageSpinner } from '../../../components/Spinner';
import { useAppSelector } from '../../../app/hooks';
import { errorMessage } from '../../../lib/apiError';
import { selectCurrentUser } from '../../../lib/session';
import { usePageTitle } from '../../../lib/usePageTitle';
import { useGetSharedListQuery } from '../api';
import { mostWantedFirst } from '../types';
import { SharedItemCard } from './SharedItemCard';
import { SignInToClaimDialog } from './SignInToClaimDialog';
import './familyLists.css';

function isNotFound(err: unknown): boolean {
  return !!err && typeof err === 'object' && 'status' in err && (err as { status: unknown }).status === 404;
}

/** /l/:token: a shared list, for visitors, family and its owner. */
export default function SharedListPage() {
  const { token = '' } = useParams();
  const user = useAppSelector(selectCurrentUser);
  const authReady = useAppSelector((s) => s.auth.initialized);
  // Wait for the session so a signed-in member's first answer carries `mine`.
  const { data, error, isLoading } = useGetSharedListQuery(token, { skip: !authReady || !token });
  const [askSignIn, setAskSignIn] = useState(false);
  const { t } = useTranslation('family-lists');
  const listName = useListName();
  usePageTitle(data ? t('shared.titleOf', { owner: data.list.ownerName, name: listName(data.list.name) }) : t('shared.fallbackTitle'));

  if (!authReady || isLoading) return <PageSpinner label={t('shared.opening')} />;
  if (error || !data) {
    return (
      <section className="page page--narrow" aria-labelledby="shared-list-title">
        <div className="card empty-state">
          <h1 id="shared-list-title" className="page__title">
            {isNotFound(error) ? t('shared.gone') : t('shared.failed')}
          </h1>
          <p>{isNotFound(error) ? t('shared.goneText') : errorMessage(error)}</p>
          <Link to="/" className="button button--primary">
            {t('shared.home')}
          </Link>
        </div>
      </section>
    );
  }

  const isOwner = data.viewer === 'owner';
  const items = mostWantedFirst(data.items);
  return (
    <section className="page page--narrow" aria-labelledby="shared-list-title">
      <header className="shared-list__header">
        <p className="muted">{isOwner ? t('shared.yours') : t('shared.whose', { owner: data.list.ownerName })}</p>
        <h1 id="shared-list-title" className="page__title">
          {listName(data.list.name)}
        </h1>
        {data.viewer === 'anonymous' && <p className="muted">{t('shared.signInToClaim')}</p>}
      </header>
      {items.length === 0 ? (
        <div className="card empty-state">
          <span className="empty-state__icon" aria-hidden="true">
            <GiftIcon size={44} />
          </span>
          <p>{t('shared.empty')}</p>
        </div>
      ) : (
        <div className="shared-list__items">
          {items.map((item) => (
            <SharedItemCard
              key={item.id}
              token={token}
              item={item}
              isOwner={isOwner}
              signedIn={!!user}
              onSignInNeeded={() => setAskSignIn(true)}
            />
          ))}
        </div>
      )}
      {askSignIn && <SignInToClaimDialog onCancel={() => setAskSignIn(false)} />}
    </section>
  );
}
