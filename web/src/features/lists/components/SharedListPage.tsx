import { DEFAULT_LIST_NAME, useListName } from '../../../lib/listName';
import { useTranslation } from 'react-i18next';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { GiftIcon, PlusIcon } from '../../../components/icons';
import { PageSpinner } from '../../../components/Spinner';
import { useAppSelector } from '../../../app/hooks';
import { errorMessage } from '../../../lib/apiError';
import { usePageTitle } from '../../../lib/usePageTitle';
import { useGetListsQuery, useGetSharedListQuery } from '../api';
import { isKeptForOthers, mostWantedFirst, recipientName, stillToBuy, takenLast, type SharedItem } from '../types';
import { safeGet, safeSet } from '../../../lib/storage';
import { SharedItemCard } from './SharedItemCard';
import { SharedListHeader } from './SharedListHeader';
import { SignInInvite } from './SignInInvite';
import { SuggestionDialog } from './SuggestionDialog';
import './familyLists.css';

/** A giver's choice of the dense view (one row per gift), kept for every list on this device. */
const DENSE_KEY = 'santa:denseLists';

function isNotFound(err: unknown): boolean {
  return !!err && typeof err === 'object' && 'status' in err && (err as { status: unknown }).status === 404;
}

interface Props {
  /** Shown under the list's title (the app offers to join the family when the link carried its invitation). */
  offer?: ReactNode;
}

/** /l/:token: a shared list, for visitors, family (who claim and suggest gifts), its managers and its recipient. */
export default function SharedListPage({ offer }: Props = {}) {
  const { token = '' } = useParams();
  const authReady = useAppSelector((s) => s.auth.initialized);
  // Wait for the session so a signed-in member's first answer carries `mine`.
  const { data, error, isLoading } = useGetSharedListQuery(token, { skip: !authReady || !token });
  const isMember = data?.viewer === 'member';
  // Whether the viewer keeps this list: managers may edit and delete anyone's suggestion.
  const { data: myLists } = useGetListsQuery(undefined, { skip: !isMember });
  const [suggesting, setSuggesting] = useState<{ item?: SharedItem } | null>(null);
  const [dense, setDense] = useState(() => safeGet(localStorage, DENSE_KEY) === '1');
  const { t } = useTranslation('lists');
  const listName = useListName();
  const forName = data ? (recipientName(data.list.recipient) ?? data.list.ownerName) : '';
  // "Tom's wishlist" for someone else's default list, "Tom's Christmas" for a list he named.
  let title = t('shared.fallbackTitle');
  if (data && data.list.name === DEFAULT_LIST_NAME) title = listName(data.list.name, data.viewer === 'owner' ? null : forName);
  else if (data) title = t('shared.titleOf', { owner: forName, name: data.list.name });
  usePageTitle(title);

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

  const manages = !!myLists?.some((l) => l.id === data.list.id && isKeptForOthers(l));
  // A giver sees what is still to buy first; anyone else's answer has no claims to order by.
  const items = isMember ? takenLast(mostWantedFirst(data.items)) : mostWantedFirst(data.items);
  function toggleDense() {
    setDense(!dense);
    safeSet(localStorage, DENSE_KEY, dense ? '0' : '1');
  }
  return (
    <section className="page page--narrow" aria-labelledby="shared-list-title">
      <SharedListHeader data={data} />
      {data.viewer !== 'owner' && offer}
      {data.viewer === 'anonymous' && <SignInInvite owner={forName} />}
      {isMember && (
        <div className="shared-list__suggest">
          <button type="button" className="button button--outline button--small" onClick={() => setSuggesting({})}>
            <PlusIcon size={16} /> {t('suggest.open')}
          </button>
          <p className="muted">{t('suggest.openHint', { name: forName })}</p>
        </div>
      )}
      {/* A claim here or live from another giver changes what is left: said politely to screen readers. */}
      {isMember && items.length > 0 && (
        <p className="visually-hidden" aria-live="polite" data-testid="still-to-buy-status">
          {t('toBuy.left', { count: stillToBuy(data) ?? 0 })}
        </p>
      )}
      {items.length === 0 ? (
        <div className="card empty-state">
          <span className="empty-state__icon" aria-hidden="true">
            <GiftIcon size={44} />
          </span>
          <p>{t('shared.empty')}</p>
        </div>
      ) : (
        <>
          <div className="shared-list__view">
            <button
              type="button"
              className="button button--outline button--small"
              aria-pressed={dense}
              onClick={toggleDense}
              data-testid="dense-toggle"
            >
              {t('shared.dense')}
            </button>
          </div>
          <div className={`shared-list__items${dense ? ' shared-list__items--dense' : ''}`}>
            {items.map((item) => (
              <SharedItemCard
                key={item.id}
                token={token}
                item={item}
                viewer={data.viewer}
                manages={manages}
                onEditSuggestion={(edit) => setSuggesting({ item: edit })}
              />
            ))}
          </div>
        </>
      )}
      {isMember && suggesting && (
        <SuggestionDialog token={token} item={suggesting.item} recipient={forName} onClose={() => setSuggesting(null)} />
      )}
    </section>
  );
}
