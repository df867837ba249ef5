import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { GiftIcon } from '../../../components/icons';
import { useFormat } from '../../../lib/format';
import { DEFAULT_LIST_NAME, useListName } from '../../../lib/listName';
import type { SecretSantaMatch } from '../types';

/** The caller's own match, and nothing of anyone else's. */
export function MyMatchCard({ match }: { match: SecretSantaMatch }) {
  const { t } = useTranslation('families');
  const format = useFormat();
  const listName = useListName();
  const { assignee } = match;
  return (
    <section className="card santa-match" aria-labelledby="santa-match-title" data-testid="santa-match">
      <span className="santa-match__icon" aria-hidden="true">
        <GiftIcon size={40} />
      </span>
      <h2 id="santa-match-title" className="santa-match__title">
        <Trans t={t} i18nKey="santa.youAreFor" values={{ name: assignee.displayName }} components={{ strong: <strong /> }} />
      </h2>
      <p className="muted">{t('santa.drawnAt', { date: format.date(new Date(match.drawnAt), { dateStyle: 'medium', timeStyle: 'short' }) })}</p>
      {assignee.lists.length === 0 ? (
        <p className="muted">{t('santa.noListYet', { name: assignee.displayName })}</p>
      ) : (
        <div className="button-row">
          {assignee.lists.map((list) => (
            <Link key={list.token} to={`/l/${list.token}`} className="button button--primary button--small">
              {list.name === DEFAULT_LIST_NAME
                ? t('santa.openWishlist', { list: listName(list.name, assignee.displayName) })
                : t('santa.openList', { name: assignee.displayName, list: list.name })}
            </Link>
          ))}
        </div>
      )}
    </section>
  );
}
