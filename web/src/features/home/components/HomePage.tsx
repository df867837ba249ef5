import { useAppSelector } from '../../../app/hooks';
import { usePageTitle, APP_NAME } from '../../../lib/usePageTitle';
import { selectAuthLoading, selectCurrentUser } from '../../auth/slice';
import { AccountCard } from './AccountCard';
import { ActionTiles } from './ActionTiles';
import { ChristmasCountdown } from './ChristmasCountdown';
import { FactCard } from './FactCard';
import { RecentItems } from './RecentItems';

/** / : countdown, a 'Did You Know?' fact, the four tiles and the account card. */
export default function HomePage() {
  usePageTitle(APP_NAME);
  const user = useAppSelector(selectCurrentUser);
  const loading = useAppSelector(selectAuthLoading);
  const initialized = useAppSelector((s) => s.auth.initialized);

  return (
    <div className="page home">
      <ChristmasCountdown />
      <FactCard />
      <ActionTiles />
      <AccountCard user={user} loading={!initialized && loading} />
      {user && <RecentItems />}
    </div>
  );
}
