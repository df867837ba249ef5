import { useAppSelector } from '../hooks';
import { usePageTitle, APP_NAME } from '../../lib/usePageTitle';
import { selectAuthLoading, selectCurrentUser } from '../../lib/session';
import { AccountCard } from '../../features/home/components/AccountCard';
import { ActionTiles } from '../../features/home/components/ActionTiles';
import { ChristmasCountdown } from '../../features/home/components/ChristmasCountdown';
import { FactCard } from '../../features/home/components/FactCard';
import { GiverLinks } from '../../components/GiverLinks';
import { RecentItems } from '../../features/wishlist/components/RecentItems';

/** / : composed here because it shows two features (home's cards, the wishlist's recent items): countdown, (signed in) the family's lists and the shopping list, a 'Did You Know?' fact, the four tiles and the account card. */
export default function HomePage() {
  usePageTitle(APP_NAME);
  const user = useAppSelector(selectCurrentUser);
  const loading = useAppSelector(selectAuthLoading);
  const initialized = useAppSelector((s) => s.auth.initialized);

  return (
    <div className="page home">
      <ChristmasCountdown />
      {/* A relative comes for the family's lists and their shopping list: one tap, above the spec's cards (docs/spec.md, section 2 'Home'). */}
      {user && <GiverLinks />}
      <FactCard />
      <ActionTiles />
      <AccountCard user={user} loading={!initialized && loading} />
      {user && <RecentItems />}
    </div>
  );
}
