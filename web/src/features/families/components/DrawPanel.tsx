import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/Field';
import { useToast } from '../../../app/shell/notices';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { useDrawSecretSantaMutation } from '../api';
import { exclusionsFor, exclusionsToDrop, membersWithoutChoice, pairKey, type Family } from '../types';
import { ConfirmDialog } from './ConfirmDialog';
import { DrawDate } from './DrawDate';
import { DropExclusionsOffer } from './exclusions/DropExclusionsOffer';
import { ExclusionPicker } from './exclusions/ExclusionPicker';

interface Props {
  family: Family;
  /** A draw exists already: drawing again replaces it. */
  drawn: boolean;
}

/** For admins: exclusions, the planned draw date, a budget, and the draw (or a redraw), each after a confirmation. */
export function DrawPanel({ family, drawn }: Props) {
  const { t } = useTranslation('families');
  const toast = useToast();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [budget, setBudget] = useState('');
  const [revealAfterExchange, setRevealAfterExchange] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string>();
  // draw_not_secret: the exclusions the server asked to drop, as the request's pairs.
  const [toDrop, setToDrop] = useState<[string, string][]>([]);
  const [draw, drawing] = useDrawSecretSantaMutation();
  const stuck = membersWithoutChoice(family.members, chosen);
  const tooFew = family.members.length < 2;

  const setPair = (a: string, b: string, on: boolean) =>
    setChosen((keys) => {
      const next = new Set(keys);
      if (on) next.add(pairKey(a, b));
      else next.delete(pairKey(a, b));
      return next;
    });

  function drop(pair: [string, string]) {
    setPair(pair[0], pair[1], false);
    setToDrop((left) => left.filter((p) => pairKey(...p) !== pairKey(...pair)));
  }

  async function run() {
    setProblem(undefined);
    setToDrop([]);
    const exclusions = exclusionsFor(family.members, chosen);
    try {
      const result = await draw({
        familyId: family.id,
        exclusions,
        ...(budget.trim() ? { budget: budget.trim() } : {}),
        ...(revealAfterExchange ? { revealAfterExchange } : {}),
      }).unwrap();
      toast({
        title: t('draw.drawn'),
        description: result.everyoneCanDeduce ? t('santa.everyoneCanDeduce', { n: result.participants }) : t('draw.drawnHint', { n: result.participants }),
      });
    } catch (err) {
      const drop = exclusionsToDrop(err, exclusions);
      if (drop.length > 0) {
        // Said in the app's words (DropExclusionsOffer), not the server's English sentence.
        setToDrop(drop);
      } else {
        // draw_impossible says why ("Ben and Cleo exclude each other…"); shown where the choices are.
        setProblem(fieldErrors(err).budget ?? errorMessage(err));
      }
    } finally {
      setConfirming(false);
    }
  }

  return (
    <section className="card santa-draw" aria-labelledby="santa-draw-title">
      <h2 id="santa-draw-title" className="santa-draw__title">
        {drawn ? t('draw.titleAgain') : t('draw.titleFirst')}
      </h2>
      {tooFew ? (
        <p className="muted">{t('draw.tooFew')}</p>
      ) : (
        <>
          <ExclusionPicker
            members={family.members}
            chosen={chosen}
            disabled={drawing.isLoading}
            onAdd={(a, b) => setPair(a, b, true)}
            onRemove={(a, b) => setPair(a, b, false)}
          />
          {stuck.length > 0 && (
            <p className="notice notice--warning" role="status">
              {t('draw.stuck', { names: stuck.map((m) => m.displayName).join(', ') })}
            </p>
          )}
          <DrawDate family={family} />
          <TextField label={t('draw.budget')} optional maxLength={40} placeholder={t('draw.budgetPlaceholder')} value={budget} onValue={setBudget} />
          <label className="santa-draw__check">
            <input
              type="checkbox"
              checked={revealAfterExchange}
              disabled={drawing.isLoading}
              onChange={(e) => setRevealAfterExchange(e.target.checked)}
            />
            <span>
              {t('draw.revealAfterExchange')}
              <span className="muted santa-draw__check-hint">{t('draw.revealAfterExchangeHint')}</span>
            </span>
          </label>
        </>
      )}
      {(problem || toDrop.length > 0) && (
        <div className="notice notice--warning" role="alert" data-testid="draw-problem">
          {problem && <p>{problem}</p>}
          {toDrop.length > 0 && <DropExclusionsOffer members={family.members} toDrop={toDrop} onDrop={drop} />}
        </div>
      )}
      <button
        type="button"
        className="button button--primary button--block"
        disabled={tooFew || drawing.isLoading}
        onClick={() => setConfirming(true)}
      >
        {drawn ? t('draw.redraw') : t('draw.draw')}
      </button>
      {confirming && (
        <ConfirmDialog
          title={drawn ? t('draw.confirmAgain') : t('draw.confirmFirst')}
          confirmLabel={drawn ? t('draw.confirmRedraw') : t('draw.confirmDraw')}
          busy={drawing.isLoading}
          onCancel={() => setConfirming(false)}
          onConfirm={run}
        >
          <p>
            {drawn ? t('draw.textAgain') : t('draw.textFirst', { n: family.members.length })}
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
