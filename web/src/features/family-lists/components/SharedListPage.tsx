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
  usePageTitle(data ? `${data.list.ownerName}'s ${data.list.name}` : 'A shared wishlist');

  if (!authReady || isLoading) return <PageSpinner label="Opening the list" />;
  if (error || !data) {
    return (
      <section className="page page--narrow" aria-labelledby="shared-list-title">
        <div className="card empty-state">
          <h1 id="shared-list-title" className="page__title">
            {isNotFound(error) ? 'This link no longer works' : 'Could not open the list'}
          </h1>
          <p>{isNotFound(error) ? 'Ask for a new link: the owner may have replaced or turned it off.' : errorMessage(error)}</p>
          <Link to="/" className="button button--primary">
            Go home
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
        <p className="muted">{isOwner ? 'Your list, as your family sees it' : `${data.list.ownerName}'s wishlist`}</p>
        <h1 id="shared-list-title" className="page__title">
          {data.list.name}
        </h1>
        {data.viewer === 'anonymous' && <p className="muted">Sign in to claim a gift so nobody buys it twice.</p>}
      </header>
      {items.length === 0 ? (
        <div className="card empty-state">
          <span className="empty-state__icon" aria-hidden="true">
            <GiftIcon size={44} />
          </span>
          <p>Nothing on this list yet.</p>
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
