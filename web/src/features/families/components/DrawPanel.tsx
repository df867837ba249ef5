import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/Field';
import { useToast } from '../../../app/shell/notices';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { useDrawSecretSantaMutation } from '../api';
import { exclusionsFor, exclusionsToDrop, membersWithoutChoice, pairKey, toggleKey, type Family } from '../types';
import { ConfirmDialog } from './ConfirmDialog';
import { DrawDate } from './DrawDate';
import { ExclusionPicker } from './ExclusionPicker';

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
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string>();
  // draw_not_secret: the ticked pairs the server asked to drop, as pair keys.
  const [toDrop, setToDrop] = useState<string[]>([]);
  const [draw, drawing] = useDrawSecretSantaMutation();
  const stuck = membersWithoutChoice(family.members, chosen);
  const tooFew = family.members.length < 2;

  async function run() {
    setProblem(undefined);
    setToDrop([]);
    const exclusions = exclusionsFor(family.members, chosen);
    try {
      const result = await draw({
        familyId: family.id,
        exclusions,
        ...(budget.trim() ? { budget: budget.trim() } : {}),
      }).unwrap();
      toast({
        title: t('draw.drawn'),
        description: result.everyoneCanDeduce ? t('santa.everyoneCanDeduce', { n: result.participants }) : t('draw.drawnHint', { n: result.participants }),
      });
    } catch (err) {
      const drop = exclusionsToDrop(err, exclusions);
      if (drop.length > 0) {
        // Said in the app's words, naming the ticked pairs to untick.
        const names = new Map(family.members.map((m) => [m.uid, m.displayName]));
        const pairs = drop.map(([a, b]) => t('draw.pair', { a: names.get(a), b: names.get(b) })).join(', ');
        setProblem(t('draw.notSecret', { pairs }));
        setToDrop(drop.map(([a, b]) => pairKey(a, b)));
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
            onToggle={(key) => setChosen((keys) => toggleKey(keys, key))}
          />
          {stuck.length > 0 && (
            <p className="notice notice--warning" role="status">
              {t('draw.stuck', { names: stuck.map((m) => m.displayName).join(', ') })}
            </p>
          )}
          <DrawDate family={family} />
          <TextField label={t('draw.budget')} optional maxLength={40} placeholder={t('draw.budgetPlaceholder')} value={budget} onValue={setBudget} />
        </>
      )}
      {problem && (
        <div className="notice notice--warning" role="alert" data-testid="draw-problem">
          <p>{problem}</p>
          {toDrop.length > 0 && (
            <button
              type="button"
              className="button button--outline button--small"
              onClick={() => {
                setChosen((keys) => new Set([...keys].filter((k) => !toDrop.includes(k))));
                setToDrop([]);
                setProblem(undefined);
              }}
            >
              {t('draw.dropThem')}
            </button>
          )}
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
