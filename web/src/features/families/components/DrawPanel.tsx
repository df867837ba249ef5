import { useState } from 'react';
import { TextField } from '../../../components/Field';
import { useToast } from '../../../app/shell/notices';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { useDrawSecretSantaMutation } from '../api';
import { exclusionsFor, membersWithoutChoice, toggleKey, type Family } from '../types';
import { ConfirmDialog } from './ConfirmDialog';
import { ExclusionPicker } from './ExclusionPicker';

interface Props {
  family: Family;
  /** A draw exists already: drawing again replaces it. */
  drawn: boolean;
}

/** For admins: exclusions, a budget, and the draw (or a redraw), each after a confirmation. */
export function DrawPanel({ family, drawn }: Props) {
  const toast = useToast();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [budget, setBudget] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [draw, drawing] = useDrawSecretSantaMutation();
  const stuck = membersWithoutChoice(family.members, chosen);
  const tooFew = family.members.length < 2;

  async function run() {
    setProblem(undefined);
    try {
      const result = await draw({
        familyId: family.id,
        exclusions: exclusionsFor(family.members, chosen),
        ...(budget.trim() ? { budget: budget.trim() } : {}),
      }).unwrap();
      toast({ title: 'Names drawn', description: `All ${result.participants} members can now see whom they give to.` });
    } catch (err) {
      // draw_impossible says why ("Ben and Cleo exclude each other…"); shown where the choices are.
      setProblem(fieldErrors(err).budget ?? errorMessage(err));
    } finally {
      setConfirming(false);
    }
  }

  return (
    <section className="card santa-draw" aria-labelledby="santa-draw-title">
      <h2 id="santa-draw-title" className="santa-draw__title">
        {drawn ? 'Draw again' : 'Draw names'}
      </h2>
      {tooFew ? (
        <p className="muted">Invite at least one more person first: you cannot be your own Secret Santa.</p>
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
              {stuck.map((m) => m.displayName).join(', ')} would have nobody to give to: untick a pair.
            </p>
          )}
          <TextField label="Budget" optional maxLength={40} placeholder="€30" value={budget} onValue={setBudget} />
        </>
      )}
      {problem && (
        <p className="notice notice--warning" role="alert" data-testid="draw-problem">
          {problem}
        </p>
      )}
      <button
        type="button"
        className="button button--primary button--block"
        disabled={tooFew || drawing.isLoading}
        onClick={() => setConfirming(true)}
      >
        {drawn ? 'Redraw names' : 'Draw names'}
      </button>
      {confirming && (
        <ConfirmDialog
          title={drawn ? 'Draw names again?' : 'Draw names now?'}
          confirmLabel={drawn ? 'Redraw' : 'Draw'}
          busy={drawing.isLoading}
          onCancel={() => setConfirming(false)}
          onConfirm={run}
        >
          <p>
            {drawn
              ? 'Everyone gets a new person to give to, and the old matches are gone. Tell the family, in case someone has already shopped.'
              : `Each of the ${family.members.length} members is told whom they give to, and nobody else learns it. Nobody, admins included, can see the other pairs.`}
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
