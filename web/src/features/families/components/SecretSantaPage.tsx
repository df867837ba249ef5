import { Link, useParams } from 'react-router';
import { ArrowLeftIcon } from '../../../components/icons';
import { PageSpinner } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/apiError';
import { usePageTitle } from '../../../lib/usePageTitle';
import { useGetFamiliesQuery, useGetMySecretSantaQuery } from '../api';
import { errorCode } from '../types';
import { DrawPanel } from './DrawPanel';
import { MyMatchCard } from './MyMatchCard';
import './families.css';

/** /family/:id/secret-santa: the caller's own match; for admins, the draw. */
export default function SecretSantaPage() {
  const { id = '' } = useParams();
  const families = useGetFamiliesQuery();
  const family = families.data?.find((f) => f.id === id);
  const match = useGetMySecretSantaQuery(id, { skip: !family });
  usePageTitle(family ? `Secret Santa in ${family.name}` : 'Secret Santa');

  if (families.isLoading || (family && match.isLoading)) return <PageSpinner label="Loading Secret Santa" />;
  if (!family) {
    return (
      <section className="page page--narrow" aria-labelledby="santa-title">
        <div className="card empty-state">
          <h1 id="santa-title" className="page__title">
            {families.error ? 'Could not load your families' : 'This family was not found'}
          </h1>
          <p>{families.error ? errorMessage(families.error) : 'You may have left it, or been removed.'}</p>
          <Link to="/family" className="button button--primary">
            My families
          </Link>
        </div>
      </section>
    );
  }

  const noDraw = errorCode(match.error) === 'no_draw';
  return (
    <section className="page page--narrow" aria-labelledby="santa-title">
      <Link to="/family" className="button button--link santa__back">
        <ArrowLeftIcon size={18} /> My families
      </Link>
      <header className="families__header">
        <h1 id="santa-title" className="page__title">
          Secret Santa
        </h1>
        <span className="family-badge">{family.name}</span>
      </header>
      {match.data && <MyMatchCard match={match.data} />}
      {noDraw && (
        <div className="card empty-state" data-testid="no-draw">
          <p>
            No names drawn yet.{' '}
            {family.role === 'admin' ? 'Draw them below when everyone has joined.' : 'An admin of the family draws them; you will get a notice.'}
          </p>
        </div>
      )}
      {match.error && !noDraw && <p className="notice notice--warning">{errorMessage(match.error)}</p>}
      {family.role === 'admin' && <DrawPanel family={family} drawn={!!match.data} />}
    </section>
  );
}
