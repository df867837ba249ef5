import { useGetSharedListQuery } from '../api';
import { ClaimControls } from './ClaimControls';

interface Props {
  /** The list's share link token: managers claim through it, as every giver does. */
  token: string;
  itemId: string;
}

/**
 * A manager's own claim on an item of a list they keep for someone else, from their view of the
 * list (My Wishlist). The shared view's answer (one request for the whole list, cached) says how
 * many units are left and how many are theirs.
 */
export function ManagerClaim({ token, itemId }: Props) {
  const { data } = useGetSharedListQuery(token);
  const item = data?.viewer === 'member' ? data.items.find((i) => i.id === itemId) : undefined;
  if (!item) return null;
  return <ClaimControls token={token} item={item} />;
}
