import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../../../app/shell/notices';
import { CalendarIcon } from '../../../../components/icons';
import { useFormat } from '../../../../lib/format';
import { downloadText, exchangeIcs } from '../../calendar';
import type { Family, SecretSantaMatch } from '../../types';
import { ExchangeForm } from './ExchangeForm';
import './exchange.css';

interface Props {
  family: Family;
  match: SecretSantaMatch;
}

/** When and where presents are swapped, and the budget: shown to everyone; admins set them here. */
export function ExchangeCard({ family, match }: Props) {
  const { t } = useTranslation('families');
  const format = useFormat();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [making, setMaking] = useState(false);
  const isAdmin = family.role === 'admin';

  async function addToCalendar(date: string) {
    setMaking(true);
    try {
      const text = await exchangeIcs({
        uid: `secret-santa-${family.id}-${date}@santa-wishlist`,
        date,
        title: t('exchange.calendarTitle', { family: family.name }),
        location: match.place || undefined,
        description: match.budget ? t('santa.budget', { budget: match.budget }) : undefined,
      });
      downloadText(`secret-santa-${date}.ics`, text);
    } catch {
      toast({ title: t('exchange.calendarFailed'), variant: 'destructive' });
    } finally {
      setMaking(false);
    }
  }

  return (
    <section className="card santa-exchange" aria-labelledby="santa-exchange-title" data-testid="santa-exchange">
      <h2 id="santa-exchange-title" className="santa-draw__title">
        {t('exchange.title')}
      </h2>
      <dl className="santa-exchange__facts">
        <div>
          <dt>{t('exchange.date')}</dt>
          <dd data-testid="exchange-date">{match.exchangeOn ? format.date(match.exchangeOn, { dateStyle: 'full' }) : t('exchange.noDate')}</dd>
        </div>
        <div>
          <dt>{t('exchange.place')}</dt>
          <dd data-testid="exchange-place">{match.place || t('exchange.noPlace')}</dd>
        </div>
        <div>
          <dt>{t('exchange.budget')}</dt>
          <dd data-testid="exchange-budget">{match.budget || t('exchange.noBudget')}</dd>
        </div>
      </dl>
      {match.revealAfterExchange && !match.circle && <p className="muted">{t('exchange.revealLater')}</p>}
      <div className="santa-exchange__actions">
        {match.exchangeOn && (
          <button
            type="button"
            className="button button--outline"
            disabled={making}
            onClick={() => void addToCalendar(match.exchangeOn!)}
          >
            <CalendarIcon size={18} /> {t('exchange.addToCalendar')}
          </button>
        )}
        {isAdmin && !editing && (
          <button type="button" className="button button--link" onClick={() => setEditing(true)}>
            {t('exchange.edit')}
          </button>
        )}
      </div>
      {isAdmin && editing && <ExchangeForm familyId={family.id} match={match} onDone={() => setEditing(false)} />}
    </section>
  );
}
