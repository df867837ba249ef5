import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { inLanguage } from '../../../../test/i18n';
import { json } from '../../../../test/utils';
import type { Family } from '../../types';
import { family, ME, NO_DRAW, renderSanta, routeSanta } from '../secretSantaFixtures';

const FOUR: Family = {
  ...family('admin'),
  members: [...family('admin').members, { uid: 'u-dan', displayName: 'Dan', role: 'member' }],
};

async function exclude(person: string, other: string) {
  await userEvent.selectOptions(await screen.findByLabelText(`Someone ${person} must not draw`), other);
  await userEvent.click(screen.getByRole('button', { name: `Add an exclusion for ${person}` }));
}

async function drawAndConfirm() {
  await userEvent.click(screen.getByRole('button', { name: 'Draw names' }));
  await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Draw' }));
}

describe('exclusions per person', () => {
  it('turns chips and couples into the draw\'s pairs, each once, and a removed chip drops its pair', async () => {
    const calls = routeSanta({
      families: () => [FOUR],
      match: (call) => (call.method === 'POST' ? json({ drawnAt: 'x', participants: 4, everyoneCanDeduce: false, revealAfterExchange: true }, 201) : NO_DRAW()),
    });
    renderSanta();
    await exclude('Holly', 'Ben');
    // An exclusion works both ways: Ben's row shows Holly too, and no longer offers her.
    const ben = screen.getByTestId('exclusions-u-ben');
    expect(within(ben).getByRole('list', { name: 'Ben must not draw' })).toHaveTextContent('Holly');
    expect(within(within(ben).getByRole('combobox')).queryByRole('option', { name: 'Holly' })).not.toBeInTheDocument();
    await exclude('Cleo', 'Dan');
    await exclude('Dan', 'Ben');
    // The couples shortcut: named once.
    await userEvent.selectOptions(screen.getByLabelText('One partner'), 'Ben');
    await userEvent.selectOptions(screen.getByLabelText('The other partner'), 'Cleo');
    await userEvent.click(screen.getByRole('button', { name: 'Add couple' }));
    expect(within(screen.getByTestId('exclusions-u-cleo')).getByRole('list')).toHaveTextContent('BenDan');
    // A couple already excluded cannot be added twice.
    await userEvent.selectOptions(screen.getByLabelText('One partner'), 'Cleo');
    await userEvent.selectOptions(screen.getByLabelText('The other partner'), 'Ben');
    expect(screen.getByRole('button', { name: 'Add couple' })).toBeDisabled();
    // Removing Cleo from Dan's chips drops the pair from both rows.
    await userEvent.click(within(screen.getByTestId('exclusions-u-dan')).getByRole('button', { name: 'Remove the exclusion Dan & Cleo' }));
    expect(within(screen.getByTestId('exclusions-u-cleo')).getByRole('list')).toHaveTextContent(/^Ben$/);
    await userEvent.click(screen.getByRole('checkbox', { name: /Reveal the circle after the exchange/ }));
    await drawAndConfirm();
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      exclusions: [
        [ME, 'u-ben'],
        ['u-ben', 'u-cleo'],
        ['u-ben', 'u-dan'],
      ],
      revealAfterExchange: true,
    });
  });

  it('leaves revealAfterExchange out unless it is ticked, and says who is left with nobody', async () => {
    const calls = routeSanta({
      families: () => [family('admin')],
      match: (call) => (call.method === 'POST' ? json({ drawnAt: 'x', participants: 3, everyoneCanDeduce: true, revealAfterExchange: false }, 201) : NO_DRAW()),
    });
    renderSanta();
    await exclude('Ben', 'Holly');
    await exclude('Ben', 'Cleo');
    expect(screen.getByRole('status')).toHaveTextContent('Ben would have nobody to give to: remove an exclusion.');
    // Nobody left to offer Ben: his picker is gone.
    expect(screen.queryByLabelText('Someone Ben must not draw')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove the exclusion Ben & Holly' }));
    await drawAndConfirm();
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ exclusions: [['u-ben', 'u-cleo']] });
  });

  it('offers, in German, to drop exactly the exclusions the server names, one button each', async () => {
    await inLanguage('de');
    const calls = routeSanta({
      families: () => [FOUR],
      match: (call) => {
        if (call.method !== 'POST') return NO_DRAW();
        // The server names exclusions by their position in the request: here the second and third.
        const fields = { exclusions: 'Drop Ben–Cleo and Ben–Dan', 'exclusions.1': 'Ben–Cleo', 'exclusions.2': 'Ben–Dan' };
        return json({ error: { code: 'draw_not_secret', message: 'Drop Ben–Cleo and Ben–Dan', fields } }, 409);
      },
    });
    renderSanta();
    const pick = async (person: string, other: string) => {
      await userEvent.selectOptions(await screen.findByLabelText(`Jemand, den ${person} nicht ziehen darf`), other);
      await userEvent.click(screen.getByRole('button', { name: `Ausschluss für ${person} hinzufügen` }));
    };
    await pick('Holly', 'Ben');
    await pick('Ben', 'Cleo');
    await pick('Ben', 'Dan');
    await userEvent.click(screen.getByRole('button', { name: 'Namen ziehen' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Ziehen' }));
    const problem = await screen.findByTestId('draw-problem');
    expect(problem).toHaveTextContent('Entferne Ben & Cleo, Ben & Dan, damit die Ziehung geheim bleibt.');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ exclusions: [[ME, 'u-ben'], ['u-ben', 'u-cleo'], ['u-ben', 'u-dan']] });
    await userEvent.click(within(problem).getByRole('button', { name: 'Ben & Dan entfernen' }));
    expect(within(problem).queryByRole('button', { name: 'Ben & Dan entfernen' })).not.toBeInTheDocument();
    expect(within(screen.getByTestId('exclusions-u-ben')).getByRole('list')).toHaveTextContent(/^HollyCleo$/);
    await userEvent.click(within(problem).getByRole('button', { name: 'Ben & Cleo entfernen' }));
    expect(screen.queryByTestId('draw-problem')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('exclusions-u-ben')).getByRole('list')).toHaveTextContent(/^Holly$/);
  });
});
