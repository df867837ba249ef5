import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ArrowLeftIcon } from '../../../components/icons';
import { PageSpinner } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/apiError';
import { useFormat } from '../../../lib/format';
import { usePageTitle } from '../../../lib/usePageTitle';
import { useGetFamiliesQuery, useGetMySecretSantaQuery } from '../api';
import { errorCode, exclusionNames } from '../types';
import { DrawPanel } from './DrawPanel';
import { CircleCard } from './exchange/CircleCard';
import { ExchangeCard } from './exchange/ExchangeCard';
import { MessagesPanel } from './messages/MessagesPanel';
import { MyMatchCard } from './MyMatchCard';
import './families.css';

/**
 * /family/:id/secret-santa: the caller's own match, the exchange, their two conversations and,
 * after an exchange that chose it, the whole circle; for admins, the draw.
 */
export default function SecretSantaPage() {
  const { t } = useTranslation('families');
  const { id = '' } = useParams();
  const families = useGetFamiliesQuery();
  const family = families.data?.find((f) => f.id === id);
  const match = useGetMySecretSantaQuery(id, { skip: !family });
  const format = useFormat();
  usePageTitle(family ? t('santa.pageTitle', { name: family.name }) : t('santa.title'));

  if (families.isLoading || (family && match.isLoading)) return <PageSpinner label={t('santa.loading')} />;
  if (!family) {
    return (
      <section className="page page--narrow" aria-labelledby="santa-title">
        <div className="card empty-state">
          <h1 id="santa-title" className="page__title">
            {families.error ? t('santa.loadFailed') : t('santa.notFound')}
          </h1>
          <p>{families.error ? errorMessage(families.error) : t('santa.notFoundHint')}</p>
          <Link to="/family" className="button button--primary">
            {t('santa.back')}
          </Link>
        </div>
      </section>
    );
  }

  const noDraw = errorCode(match.error) === 'no_draw';
  return (
    <section className="page page--narrow" aria-labelledby="santa-title">
      <Link to="/family" className="button button--link santa__back">
        <ArrowLeftIcon size={18} /> {t('santa.back')}
      </Link>
      <header className="families__header">
        <h1 id="santa-title" className="page__title">
          {t('santa.title')}
        </h1>
        <span className="family-badge">{family.name}</span>
      </header>
      {match.data && <MyMatchCard match={match.data} />}
      {match.data?.everyoneCanDeduce && (
        <p className="notice notice--warning" role="status" data-testid="everyone-can-deduce">
          {t('santa.everyoneCanDeduce', { n: family.members.length })}
        </p>
      )}
      {match.data && <ExchangeCard family={family} match={match.data} />}
      {match.data?.circle && match.data.circle.length > 0 && <CircleCard circle={match.data.circle} />}
      {match.data && <MessagesPanel key={id} familyId={id} gifteeName={match.data.assignee.displayName} />}
      {match.data && (
        <section className="card santa-rules" aria-labelledby="santa-rules-title" data-testid="santa-exclusions">
          <h2 id="santa-rules-title" className="santa-draw__title">
            {t('santa.exclusionsTitle')}
          </h2>
          {match.data.exclusions.length === 0 ? (
            <p className="muted">{t('santa.noExclusions')}</p>
          ) : (
            <ul className="santa-rules__list">
              {exclusionNames(family.members, match.data.exclusions).map(([a, b]) => (
                <li key={`${a}|${b}`}>{t('draw.pair', { a, b })}</li>
              ))}
            </ul>
          )}
        </section>
      )}
      {noDraw && (
        <div className="card empty-state" data-testid="no-draw">
          <p>
            {t('santa.noDraw')} {family.role === 'admin' ? t('santa.noDrawAdmin') : t('santa.noDrawMember')}
          </p>
          {family.drawOn && <p data-testid="planned-draw">{t('santa.plannedOn', { date: format.date(family.drawOn) })}</p>}
        </div>
      )}
      {match.error && !noDraw && <p className="notice notice--warning">{errorMessage(match.error)}</p>}
      {family.role === 'admin' && <DrawPanel family={family} drawn={!!match.data} />}
    </section>
  );
}
