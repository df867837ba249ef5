import { useListName } from '../listName';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { GiftIcon, PlusIcon } from '../../../components/icons';
import { PageSpinner } from '../../../components/Spinner';
import { useAppSelector } from '../../../app/hooks';
import { errorMessage } from '../../../lib/apiError';
import { usePageTitle } from '../../../lib/usePageTitle';
import { useGetListsQuery, useGetSharedListQuery } from '../api';
import { isKeptForOthers, mostWantedFirst, recipientName, type SharedItem } from '../types';
import { SharedItemCard } from './SharedItemCard';
import { SharedListHeader } from './SharedListHeader';
import { SignInInvite } from './SignInInvite';
import { SuggestionDialog } from './SuggestionDialog';
import './familyLists.css';

function isNotFound(err: unknown): boolean {
  return !!err && typeof err === 'object' && 'status' in err && (err as { status: unknown }).status === 404;
}

/** /l/:token: a shared list, for visitors, family (who claim and suggest gifts), its managers and its recipient. */
export default function SharedListPage() {
  const { token = '' } = useParams();
  const authReady = useAppSelector((s) => s.auth.initialized);
  // Wait for the session so a signed-in member's first answer carries `mine`.
  const { data, error, isLoading } = useGetSharedListQuery(token, { skip: !authReady || !token });
  const isMember = data?.viewer === 'member';
  // Whether the viewer keeps this list: managers may edit and delete anyone's suggestion.
  const { data: myLists } = useGetListsQuery(undefined, { skip: !isMember });
  const [suggesting, setSuggesting] = useState<{ item?: SharedItem } | null>(null);
  const { t } = useTranslation('lists');
  const listName = useListName();
  const forName = data ? (recipientName(data.list.recipient) ?? data.list.ownerName) : '';
  usePageTitle(data ? t('shared.titleOf', { owner: forName, name: listName(data.list.name) }) : t('shared.fallbackTitle'));

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
  const items = mostWantedFirst(data.items);
  return (
    <section className="page page--narrow" aria-labelledby="shared-list-title">
      <SharedListHeader data={data} />
      {data.viewer === 'anonymous' && <SignInInvite owner={forName} />}
      {isMember && (
        <div className="shared-list__suggest">
          <button type="button" className="button button--outline button--small" onClick={() => setSuggesting({})}>
            <PlusIcon size={16} /> {t('suggest.open')}
          </button>
          <p className="muted">{t('suggest.openHint', { name: forName })}</p>
        </div>
      )}
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
              viewer={data.viewer}
              manages={manages}
              onEditSuggestion={(edit) => setSuggesting({ item: edit })}
            />
          ))}
        </div>
      )}
      {isMember && suggesting && (
        <SuggestionDialog token={token} item={suggesting.item} recipient={forName} onClose={() => setSuggesting(null)} />
      )}
    </section>
  );
}
