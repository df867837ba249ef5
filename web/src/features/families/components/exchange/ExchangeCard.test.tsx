import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { inLanguage } from '../../../../test/i18n';
import { json } from '../../../../test/utils';
import type { SecretSantaMatch } from '../../types';
import { family, MATCH, renderSanta, routeSanta } from '../secretSantaFixtures';

const PLANNED: SecretSantaMatch = { ...MATCH, exchangeOn: '2026-12-24', place: "Grandma's", revealAfterExchange: true };

/** Catches the file the browser would download. */
function catchDownloads() {
  const files: { name: string; blob: Blob }[] = [];
  let last: Blob | undefined;
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn((b: Blob) => ((last = b), 'blob:ics')), revokeObjectURL: vi.fn() }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    files.push({ name: this.download, blob: last! });
  });
  return files;
}

describe('the exchange card', () => {
  it('shows everyone the date, place and budget, and makes a calendar file of that day', async () => {
    const files = catchDownloads();
    routeSanta({ match: () => json(PLANNED) });
    renderSanta();
    const card = await screen.findByTestId('santa-exchange');
    expect(within(card).getByTestId('exchange-date')).toHaveTextContent('Thursday, December 24, 2026');
    expect(within(card).getByTestId('exchange-place')).toHaveTextContent("Grandma's");
    expect(within(card).getByTestId('exchange-budget')).toHaveTextContent('€30');
    expect(card).toHaveTextContent('The day after the exchange, everyone will see who gave to whom.');
    // A member cannot change them.
    expect(within(card).queryByRole('button', { name: 'Set date, place and budget' })).not.toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Add to calendar' }));
    await waitFor(() => expect(files).toHaveLength(1));
    expect(files[0].name).toBe('secret-santa-2026-12-24.ics');
    const ics = await files[0].blob.text();
    expect(ics).toContain('DTSTART;VALUE=DATE:20261224');
    expect(ics).toContain('SUMMARY:Secret Santa exchange – The Smiths');
    expect(ics).toContain("LOCATION:Grandma's");
    expect(files[0].blob.type).toContain('text/calendar');
  });

  it('says what is not set yet, with no calendar button without a date', async () => {
    routeSanta({ match: () => json({ ...MATCH, budget: '' }) });
    renderSanta();
    const card = await screen.findByTestId('santa-exchange');
    expect(card).toHaveTextContent('DateNot set yet');
    expect(card).toHaveTextContent('PlaceNot said yet');
    expect(card).toHaveTextContent('BudgetNo budget');
    expect(within(card).queryByRole('button', { name: 'Add to calendar' })).not.toBeInTheDocument();
  });

  it('lets an admin set them, sending only what changed, and shows why a past date is refused', async () => {
    let saved = MATCH;
    const calls = routeSanta({
      families: () => [family('admin')],
      match: (call) => {
        if (call.method !== 'PATCH') return json(saved);
        const body = call.body as { exchangeOn?: string };
        if (body.exchangeOn === '2020-01-01') {
          const why = 'The exchange date cannot be in the past.';
          return json({ error: { code: 'validation_failed', message: why, fields: { exchangeOn: why } } }, 422);
        }
        saved = { ...saved, ...(body as Partial<SecretSantaMatch>) };
        return json({ drawOn: null, exchangeOn: saved.exchangeOn, place: saved.place, budget: saved.budget });
      },
    });
    renderSanta();
    await userEvent.click(await screen.findByRole('button', { name: 'Set date, place and budget' }));
    const form = screen.getByRole('form', { name: 'Date, place and budget of the exchange' });
    const date = within(form).getByLabelText(/Date/);
    expect(date.getAttribute('min')).toBe(new Date().toISOString().slice(0, 10));
    await userEvent.type(date, '2020-01-01');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('The exchange date cannot be in the past.')).toBeInTheDocument();
    expect(date).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(date);
    await userEvent.type(date, '2026-12-24');
    await userEvent.type(within(form).getByLabelText(/Place/), "Grandma's");
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('exchange-place')).toHaveTextContent("Grandma's"));
    expect(screen.getByTestId('exchange-date')).toHaveTextContent('December 24, 2026');
    const patches = calls.filter((c) => c.method === 'PATCH');
    expect(patches.map((c) => c.body)).toEqual([{ exchangeOn: '2020-01-01' }, { exchangeOn: '2026-12-24', place: "Grandma's" }]);
    expect(patches.every((c) => c.url === '/api/families/fam-1/secret-santa')).toBe(true);
  });

  it('shows the whole circle once the server sends it, and never without it', async () => {
    const circle = [
      { giver: { uid: 'uid-123', displayName: 'Holly' }, receiver: { uid: 'u-cleo', displayName: 'Cleo' } },
      { giver: { uid: 'u-cleo', displayName: 'Cleo' }, receiver: { uid: 'u-ben', displayName: 'Ben' } },
      { giver: { uid: 'u-ben', displayName: 'Ben' }, receiver: { uid: 'uid-123', displayName: 'Holly' } },
    ];
    routeSanta({ match: () => json({ ...PLANNED, exchangeOn: '2026-11-20', circle }) });
    const first = renderSanta();
    const shown = await screen.findByTestId('santa-circle');
    expect(within(shown).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Holly → Cleo', 'Cleo → Ben', 'Ben → Holly']);
    expect(screen.getByTestId('santa-exchange')).not.toHaveTextContent('everyone will see who gave to whom');
    first.unmount();
    routeSanta({ match: () => json(PLANNED) });
    renderSanta();
    await screen.findByTestId('santa-exchange');
    expect(screen.queryByTestId('santa-circle')).not.toBeInTheDocument();
  });

  it('speaks French', async () => {
    await inLanguage('fr');
    routeSanta({ match: () => json(PLANNED) });
    renderSanta();
    const card = await screen.findByTestId('santa-exchange');
    expect(within(card).getByRole('heading')).toHaveTextContent("L'échange");
    expect(within(card).getByRole('button', { name: 'Ajouter au calendrier' })).toBeInTheDocument();
    expect(within(card).getByTestId('exchange-date')).toHaveTextContent('jeudi 24 décembre 2026');
  });
});
