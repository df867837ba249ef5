import { useAppSelector } from '../../../app/hooks';
import { useToast } from '../../../app/shell/notices';
import { errorMessage } from '../../../lib/apiError';
import { selectCurrentUser } from '../../../lib/session';
import { useGetListsQuery, useShareListMutation } from '../api';
import { absoluteUrl } from './ListSettingsDialog';

/** On the share options screen: the link of the whole default list, beside the gift's own link (signed in only). */
export function ListLinkCard() {
  const user = useAppSelector(selectCurrentUser);
  const { data: lists } = useGetListsQuery(undefined, { skip: !user });
  const [share, { isLoading }] = useShareListMutation();
  const toast = useToast();
  const list = lists?.find((l) => l.isDefault);
  if (!user || !list) return null;
  const url = list.share ? absoluteUrl(list.share.url) : null;

  async function copy(link: string) {
    try {
      await navigator.clipboard.writeText(link);
      toast({ title: 'Link Copied', description: 'The link to your list is on the clipboard' });
    } catch {
      toast({ title: 'Copy Failed', description: 'Select the link and copy it by hand.', variant: 'destructive' });
    }
  }

  return (
    <div className="card share-link" data-testid="list-link">
      {url ? (
        <>
          <label className="field__label" htmlFor="list-link-input">
            Link to your whole list ({list.name})
          </label>
          <div className="share-link__row">
            <input id="list-link-input" className="input share-link__input" value={url} readOnly onFocus={(e) => e.target.select()} />
            <button type="button" className="button button--primary button--small" onClick={() => void copy(url)}>
              Copy List Link
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="field__label">Share your whole list, so family can claim gifts</p>
          <button
            type="button"
            className="button button--outline button--small"
            disabled={isLoading}
            onClick={() =>
              share(list.id)
                .unwrap()
                .catch((err: unknown) => toast({ title: 'Could not make the link', description: errorMessage(err), variant: 'destructive' }))
            }
          >
            Make a link to {list.name}
          </button>
        </>
      )}
    </div>
  );
}
