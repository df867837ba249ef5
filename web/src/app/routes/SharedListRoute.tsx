import { useSearchParams } from 'react-router';
import { JoinOffer } from '../../features/families/components/JoinOffer';
import SharedListPage from '../../features/lists/components/SharedListPage';

/**
 * /l/:token: the lists feature's shared list. When its owner sent it with their family's
 * invitation (`?join=`, made on the Family page), the families feature offers to join.
 */
export default function SharedListRoute() {
  const [params] = useSearchParams();
  const join = params.get('join');
  return <SharedListPage offer={join ? <JoinOffer token={join} /> : undefined} />;
}
