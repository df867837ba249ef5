import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { GiverLinks } from '../../components/GiverLinks';
import { useGetListsQuery } from '../../features/lists/api';
import { ListBar } from '../../features/lists/components/ListBar';
import { ManagerClaim } from '../../features/lists/components/ManagerClaim';
import { isKeptForOthers } from '../../features/lists/types';
import { ThanksAction } from '../../features/giving/components/ThanksAction';
import WishlistPage from '../../features/wishlist/components/WishlistPage';
import type { WishlistItem } from '../../lib/wishlistItem';

/**
 * /wishlist: the wishlist feature's page with the lists switcher; `?list=` keeps the choice in the
 * address. On a list the user keeps for someone else they are a giver: the cards show who is
 * getting what and the relatives' suggestions, and they claim through the list's link. A list
 * made for the user (role recipient) is shown exactly as their own. A revealed gift can be
 * thanked for.
 */
export default function MyWishlistPage() {
  const [params, setParams] = useSearchParams();
  const listId = params.get('list') ?? undefined;
  const { data: lists } = useGetListsQuery();
  const list = lists?.find((l) => l.id === listId) ?? lists?.find((l) => l.isDefault);
  const givers = !!list && isKeptForOthers(list);
  const token = givers ? list?.share?.token : undefined;
  // Thanks come from the recipient: the caller on their own lists, a keeper on behalf of a person
  // without an account (features/giving shows "Say thank you" once a gift is revealed).
  const thanks = !givers || list?.recipient.kind === 'person';
  const itemActions = useCallback(
    (item: WishlistItem) => (
      <>
        {token && <ManagerClaim token={token} itemId={item.id} />}
        {thanks && <ThanksAction item={item} />}
      </>
    ),
    [token, thanks],
  );
  return (
    <WishlistPage
      listId={listId}
      givers={givers}
      itemActions={itemActions}
      toolbar={
        <>
          <ListBar
            selectedId={listId}
            onSelect={(next) => setParams(next.isDefault ? {} : { list: next.id }, { replace: true })}
          />
          <GiverLinks />
        </>
      }
    />
  );
}
