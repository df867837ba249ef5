import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { inLanguage } from '../../../test/i18n';
import { json, mockFetch, renderWithProviders, signedIn } from '../../../test/utils';
import { family, MATCH, ME } from './secretSantaFixtures';
import SecretSantaPage from './SecretSantaPage';

function render() {
  return renderWithProviders(<SecretSantaPage />, {
    path: '/family/:id/secret-santa',
    initialEntry: '/family/fam-1/secret-santa',
    preloadedState: signedIn(),
  });
}

describe('Secret Santa /family/:id/secret-santa', () => {
  it('shows a member only their own match, with a button to that person\'s list, and no draw controls', async () => {
    mockFetch((call) => json(call.url.endsWith('/secret-santa') ? MATCH : [family('member')]));
    render();
    const match = await screen.findByTestId('santa-match');
    expect(match).toHaveTextContent('You are Secret Santa for Cleo');
    expect(screen.getByTestId('exchange-budget')).toHaveTextContent('€30');
    expect(within(match).getByRole('link', { name: "Open Cleo's Christmas" })).toHaveAttribute('href', '/l/tok-cleo');
    expect(screen.queryByRole('button', { name: /Draw names|Redraw/ })).not.toBeInTheDocument();
  });

  it('lets an admin choose exclusions and a budget, asks before drawing, and sends the pairs', async () => {
    let drawn = false;
    const calls = mockFetch((call) => {
      if (call.method === 'POST') {
        drawn = true;
        return json({ drawnAt: MATCH.drawnAt, participants: 3 }, 201);
      }
      if (call.url.endsWith('/secret-santa')) {
        return drawn ? json(MATCH) : json({ error: { code: 'no_draw', message: 'No names drawn yet.' } }, 404);
      }
      return json([family('admin')]);
    });
    render();
    expect(await screen.findByTestId('no-draw')).toHaveTextContent('No names drawn yet');
    await userEvent.selectOptions(screen.getByLabelText('Someone Ben must not draw'), 'Cleo');
    await userEvent.click(screen.getByRole('button', { name: 'Add an exclusion for Ben' }));
    await userEvent.type(screen.getByLabelText(/Budget/), '€30');
    await userEvent.click(screen.getByRole('button', { name: 'Draw names' }));
    const confirm = screen.getByRole('dialog', { name: 'Draw names now?' });
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Draw' }));
    expect(await screen.findByTestId('santa-match')).toHaveTextContent('You are Secret Santa for Cleo');
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe('/api/families/fam-1/secret-santa');
    expect(post?.body).toEqual({ exclusions: [['u-ben', 'u-cleo']], budget: '€30' });
    // Drawn once: the button now redraws, again after asking.
    await userEvent.click(screen.getByRole('button', { name: 'Redraw names' }));
    expect(screen.getByRole('dialog', { name: 'Draw names again?' })).toBeInTheDocument();
  });

  it('shows why a draw is impossible', async () => {
    const why = 'Holly would have nobody to give to: everyone else is excluded.';
    mockFetch((call) => {
      if (call.method === 'POST') return json({ error: { code: 'draw_impossible', message: why } }, 409);
      if (call.url.endsWith('/secret-santa')) return json({ error: { code: 'no_draw', message: 'No names drawn yet.' } }, 404);
      return json([family('admin')]);
    });
    render();
    await userEvent.selectOptions(await screen.findByLabelText('Someone Holly must not draw'), 'Ben');
    await userEvent.click(screen.getByRole('button', { name: 'Add an exclusion for Holly' }));
    await userEvent.selectOptions(screen.getByLabelText('Someone Holly must not draw'), 'Cleo');
    await userEvent.click(screen.getByRole('button', { name: 'Add an exclusion for Holly' }));
    expect(screen.getByText(/remove an exclusion/)).toHaveTextContent('Holly would have nobody to give to');
    await userEvent.click(screen.getByRole('button', { name: 'Draw names' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Draw' }));
    await waitFor(() => expect(screen.getByTestId('draw-problem')).toHaveTextContent(why));
    expect(screen.queryByTestId('santa-match')).not.toBeInTheDocument();
  });

  it('answers a family the caller is not in like one that does not exist', async () => {
    mockFetch(() => json([]));
    render();
    expect(await screen.findByRole('heading', { name: 'This family was not found' })).toBeInTheDocument();
  });

  it('speaks German when German is chosen', async () => {
    await inLanguage('de');
    mockFetch((call) => json(call.url.endsWith('/secret-santa') ? MATCH : [family('admin')]));
    render();
    expect(await screen.findByTestId('santa-match')).toHaveTextContent('Du wichtelst für Cleo');
    expect(screen.getByLabelText('Jemand, den Ben nicht ziehen darf')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /Den Kreis nach der Bescherung aufdecken/ })).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Namen neu ziehen' })).toBeInTheDocument();
  });

  it('shows every participant the exclusions, and warns when three can work out the whole draw', async () => {
    mockFetch((call) => json(call.url.endsWith('/secret-santa') ? { ...MATCH, everyoneCanDeduce: true } : [family('member')]));
    render();
    expect(await screen.findByTestId('santa-exclusions')).toHaveTextContent('Ben & Cleo');
    expect(screen.getByTestId('everyone-can-deduce')).toHaveTextContent('With only 3 of you, everyone can work out the whole draw');
  });

  it('says which exclusion to drop when the draw would not be secret, and drops it', async () => {
    const calls = mockFetch((call) => {
      if (call.method === 'POST') {
        return json(
          { error: { code: 'draw_not_secret', message: 'drop Holly–Ben', fields: { exclusions: 'drop Holly–Ben', 'exclusions.0': 'Holly–Ben' } } },
          409,
        );
      }
      if (call.url.endsWith('/secret-santa')) return json({ error: { code: 'no_draw', message: 'No names drawn yet.' } }, 404);
      return json([family('admin')]);
    });
    render();
    await userEvent.selectOptions(await screen.findByLabelText('Someone Holly must not draw'), 'Ben');
    await userEvent.click(screen.getByRole('button', { name: 'Add an exclusion for Holly' }));
    await userEvent.click(screen.getByRole('button', { name: 'Draw names' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Draw' }));
    const problem = await screen.findByTestId('draw-problem');
    expect(problem).toHaveTextContent("someone could work out another person's match from their own. Drop Holly & Ben");
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ exclusions: [[ME, 'u-ben']] });
    expect(screen.getByRole('button', { name: 'Remove the exclusion Holly & Ben' })).toBeInTheDocument();
    await userEvent.click(within(problem).getByRole('button', { name: 'Drop Holly & Ben' }));
    expect(screen.queryByRole('button', { name: 'Remove the exclusion Holly & Ben' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('draw-problem')).not.toBeInTheDocument();
  });
});

describe('the planned draw date', () => {
  it('shows a member the planned date while no names are drawn', async () => {
    mockFetch((call) =>
      call.url.endsWith('/secret-santa')
        ? json({ error: { code: 'no_draw', message: 'No names drawn yet.' } }, 404)
        : json([{ ...family('member'), drawOn: '2026-12-01' }]),
    );
    render();
    expect(await screen.findByTestId('planned-draw')).toHaveTextContent('Planned draw date: Dec 1, 2026.');
    expect(screen.queryByLabelText(/Planned draw date/)).not.toBeInTheDocument();
  });

  it('lets an admin save and clear the date beside the budget, and shows the server\'s reason for a bad one', async () => {
    let drawOn: string | null = null;
    const calls = mockFetch((call) => {
      if (call.method === 'PATCH') {
        const wanted = (call.body as { drawOn: string | null }).drawOn;
        if (wanted === '2020-01-01') {
          return json({ error: { code: 'validation_failed', message: 'The draw date cannot be in the past.', fields: { drawOn: 'The draw date cannot be in the past.' } } }, 422);
        }
        drawOn = wanted;
        return json({ drawOn });
      }
      if (call.url.endsWith('/secret-santa')) return json({ error: { code: 'no_draw', message: 'No names drawn yet.' } }, 404);
      return json([{ ...family('admin'), drawOn }]);
    });
    render();
    const field = await screen.findByLabelText(/Planned draw date/);
    await userEvent.type(field, '2020-01-01');
    await userEvent.click(screen.getByRole('button', { name: 'Save date' }));
    expect(await screen.findByText('The draw date cannot be in the past.')).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, '2026-12-01');
    await userEvent.click(screen.getByRole('button', { name: 'Save date' }));
    await waitFor(() => expect(drawOn).toBe('2026-12-01'));
    await userEvent.click(await screen.findByRole('button', { name: 'Clear date' }));
    await waitFor(() => expect(drawOn).toBeNull());
    const patches = calls.filter((c) => c.method === 'PATCH');
    expect(patches.map((c) => c.body)).toEqual([{ drawOn: '2020-01-01' }, { drawOn: '2026-12-01' }, { drawOn: null }]);
    expect(patches.every((c) => c.url === '/api/families/fam-1/secret-santa')).toBe(true);
  });
});
