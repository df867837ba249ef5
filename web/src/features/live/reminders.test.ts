import { makeStore } from '../../app/store';
import { inLanguage } from '../../test/i18n';
import { handleLiveEvent } from './events';

const DRAW = {
  title: 'Secret Santa draw in 3 days',
  message: 'The Smiths: the names have not been drawn yet.',
  daysLeft: 3,
  familyId: 'f1',
  familyName: 'The Smiths',
  drawOn: '2026-12-01',
};
const SHOPPING = {
  title: 'Christmas in 7 days',
  message: '2 gifts on your shopping list are not marked purchased',
  daysLeft: 7,
  revealAt: '2026-12-26T00:00:00Z',
  notPurchased: 2,
};

describe('reminders on the live stream', () => {
  it('say the server\'s words in English and re-read the screen they are about', () => {
    const store = makeStore();
    const dispatch = vi.spyOn(store, 'dispatch');
    const ctx = { dispatch: store.dispatch, currentCount: () => 0 };
    handleLiveEvent({ event: 'reminder-draw-soon', data: JSON.stringify(DRAW) }, ctx);
    expect(dispatch).toHaveBeenCalledWith(expect.objectContaining({ type: 'api/invalidateTags', payload: ['Families'] }));
    expect(store.getState().shell.shellToast.message).toBe('Secret Santa draw in 3 days: The Smiths: the names have not been drawn yet.');
    handleLiveEvent({ event: 'reminder-shopping', data: JSON.stringify(SHOPPING) }, ctx);
    expect(dispatch).toHaveBeenCalledWith(expect.objectContaining({ type: 'api/invalidateTags', payload: ['Claims'] }));
    expect(store.getState().shell.shellToast.message).toBe('Christmas in 7 days: 2 gifts on your shopping list are not marked purchased');
  });

  it('speak the chosen language from the reminder\'s fields', async () => {
    await inLanguage('de');
    const store = makeStore();
    const ctx = { dispatch: store.dispatch, currentCount: () => 0 };
    handleLiveEvent({ event: 'reminder-shopping', data: JSON.stringify(SHOPPING) }, ctx);
    expect(store.getState().shell.shellToast.message).toBe(
      'Weihnachten in 7 Tagen: 2 Geschenke auf deiner Einkaufsliste sind noch nicht als gekauft markiert',
    );
    handleLiveEvent(
      { event: 'reminder-list-empty', data: JSON.stringify({ title: 'Your list is empty', message: 'x', daysLeft: 30, listId: 'l1', listName: 'Weihnachten', revealAt: '2026-12-26T00:00:00Z' }) },
      ctx,
    );
    expect(store.getState().shell.shellToast.message).toBe('Deine Liste ist leer: „Weihnachten“ ist geteilt, hat aber noch keine Wünsche.');
  });
});
