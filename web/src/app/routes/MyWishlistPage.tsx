import { useSearchParams } from 'react-router';
import { ListBar } from '../../features/lists/components/ListBar';
import WishlistPage from '../../features/wishlist/components/WishlistPage';

/** /wishlist: the wishlist feature's page with the lists switcher; `?list=` keeps the choice in the address. */
export default function MyWishlistPage() {
  const [params, setParams] = useSearchParams();
  const listId = params.get('list') ?? undefined;
  return (
    <WishlistPage
      listId={listId}
      toolbar={
        <ListBar
          selectedId={listId}
          onSelect={(list) => setParams(list.isDefault ? {} : { list: list.id }, { replace: true })}
        />
      }
    />
  );
}
