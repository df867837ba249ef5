import { ListLinkCard } from '../../features/lists/components/ListLinkCard';
import ShareOptionsPage from '../../features/photo/share/ShareOptionsPage';

/** /share-options: the photo flow's share screen, with the whole list's link from lists. */
export default function ShareOptionsRoute() {
  return <ShareOptionsPage listLink={<ListLinkCard />} />;
}
