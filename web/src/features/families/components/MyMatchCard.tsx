import { Link } from 'react-router';
import { GiftIcon } from '../../../components/icons';
import type { SecretSantaMatch } from '../types';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The caller's own match, and nothing of anyone else's. */
export function MyMatchCard({ match }: { match: SecretSantaMatch }) {
  const { assignee } = match;
  return (
    <section className="card santa-match" aria-labelledby="santa-match-title" data-testid="santa-match">
      <span className="santa-match__icon" aria-hidden="true">
        <GiftIcon size={40} />
      </span>
      <h2 id="santa-match-title" className="santa-match__title">
        You are Secret Santa for <strong>{assignee.displayName}</strong>
      </h2>
      {match.budget && <p className="santa-match__budget">Budget: {match.budget}</p>}
      <p className="muted">Drawn {when.format(new Date(match.drawnAt))}. Keep it secret: nobody else can see it.</p>
      {assignee.lists.length === 0 ? (
        <p className="muted">{assignee.displayName} has not shared a list with the family yet.</p>
      ) : (
        <div className="button-row">
          {assignee.lists.map((list) => (
            <Link key={list.token} to={`/l/${list.token}`} className="button button--primary button--small">
              Open {assignee.displayName}&apos;s {list.name}
            </Link>
          ))}
        </div>
      )}
    </section>
  );
}
