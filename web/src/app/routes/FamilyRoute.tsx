import FamilyPage from '../../features/families/components/FamilyPage';
import { StillToBuy } from '../../features/lists/components/StillToBuy';

/** /family: the families feature's page, each shared list with how many gifts are still to buy (lists feature). */
export default function FamilyRoute() {
  return <FamilyPage listExtra={(list) => <StillToBuy token={list.token} />} />;
}
