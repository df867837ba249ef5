import { useListName } from '../listName';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { GiftIcon } from '../../../components/icons';
import { PageSpinner } from '../../../components/Spinner';
import { useAppSelector } from '../../../app/hooks';
import { errorMessage } from '../../../lib/apiError';
import { usePageTitle } from '../../../lib/usePageTitle';
import { useGetSharedListQuery } from '../api';
import { mostWantedFirst } from '../types';
import { SharedItemCard } from './SharedItemCard';
import { SignInInvite } from './SignInInvite';
import './familyLists.css';

function isNotFound(err: unknown): boolean {
  return !!err && typeof err === 'object' && 'status' in err && (err as { status: unknown }).status === 404;
}

/** /l/:token: a shared list, for visitors, family and its owner. */
export default function SharedListPage() {
  const { token = '' } = useParams();
  const authReady = useAppSelector((s) => s.auth.initialized);
  // Wait for the session so a signed-in member's first answer carries `mine`.
  const { data, error, isLoading } = useGetSharedListQuery(token, { skip: !authReady || !token });
  const { t } = useTranslation('lists');
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

  const items = mostWantedFirst(data.items);
  return (
    <section className="page page--narrow" aria-labelledby="shared-list-title">
      <header className="shared-list__header">
        <p className="muted">{data.viewer === 'owner' ? t('shared.yours') : t('shared.whose', { owner: data.list.ownerName })}</p>
        <h1 id="shared-list-title" className="page__title">
          {listName(data.list.name)}
        </h1>
      </header>
      {data.viewer === 'anonymous' && <SignInInvite owner={data.list.ownerName} />}
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
            <SharedItemCard key={item.id} token={token} item={item} viewer={data.viewer} />
          ))}
        </div>
      )}
    </section>
  );
}
