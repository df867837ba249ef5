import { useListName } from '../../../lib/listName';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../../app/hooks';
import { useToast } from '../../../app/shell/notices';
import { errorMessage } from '../../../lib/apiError';
import { selectCurrentUser } from '../../../lib/session';
import { useGetListsQuery, useShareListMutation } from '../api';
import { absoluteUrl } from './ListSettingsDialog';
import { offerPush } from '../../../lib/push';

/** On the share options screen: the link of the whole default list, beside the gift's own link (signed in only). */
export function ListLinkCard() {
  const user = useAppSelector(selectCurrentUser);
  const { data: lists } = useGetListsQuery(undefined, { skip: !user });
  const [share, { isLoading }] = useShareListMutation();
  const toast = useToast();
  const { t } = useTranslation('lists');
  const listName = useListName();
  const list = lists?.find((l) => l.isDefault);
  if (!user || !list) return null;
  const url = list.share ? absoluteUrl(list.share.url) : null;

  async function copy(link: string) {
    try {
      await navigator.clipboard.writeText(link);
      toast({ title: t('link.copied'), description: t('link.copiedText') });
    } catch {
      toast({ title: t('link.copyFailed'), description: t('link.copyByHand'), variant: 'destructive' });
    }
  }

  return (
    <div className="card share-link" data-testid="list-link">
      {url ? (
        <>
          <label className="field__label" htmlFor="list-link-input">
            {t('link.label', { name: listName(list.name) })}
          </label>
          <div className="share-link__row">
            <input id="list-link-input" className="input share-link__input" value={url} readOnly onFocus={(e) => e.target.select()} />
            <button type="button" className="button button--primary button--small" onClick={() => void copy(url)}>
              {t('link.copy')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="field__label">{t('link.invite')}</p>
          <button
            type="button"
            className="button button--outline button--small"
            disabled={isLoading}
            onClick={() =>
              share(list.id)
                .unwrap()
                .then(() => offerPush('shared'))
                .catch((err: unknown) => toast({ title: t('link.makeFailed'), description: errorMessage(err), variant: 'destructive' }))
            }
          >
            {t('link.make', { name: listName(list.name) })}
          </button>
        </>
      )}
    </div>
  );
}
