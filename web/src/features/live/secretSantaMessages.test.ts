import { makeStore } from '../../app/store';
import { inLanguage } from '../../test/i18n';
import { handleLiveEvent } from './events';

const FROM_SANTA = { message: 'Your Secret Santa sent you a message', familyId: 'f1', familyName: 'The Smiths', with: 'santa' };
const EXCHANGE = {
  title: 'Secret Santa exchange in 3 days',
  message: "The Smiths: presents are swapped at Grandma's.",
  daysLeft: 3,
  familyId: 'f1',
  familyName: 'The Smiths',
  exchangeOn: '2026-12-24',
  place: "Grandma's",
};

function setup() {
  const store = makeStore();
  const dispatch = vi.spyOn(store, 'dispatch');
  return { store, dispatch, ctx: { dispatch: store.dispatch, currentCount: () => 0 } };
}

describe('Secret Santa conversations and the exchange on the live stream', () => {
  it('secret-santa-message re-reads that family\'s conversations and says so politely, naming nobody', () => {
    const { store, dispatch, ctx } = setup();
    handleLiveEvent({ event: 'secret-santa-message', data: JSON.stringify(FROM_SANTA) }, ctx);
    expect(dispatch).toHaveBeenCalledWith(
      expect.objectContaining({ type: 'api/invalidateTags', payload: [{ type: 'SecretSantaMessages', id: 'f1' }] }),
    );
    expect(store.getState().shell.shellToast).toMatchObject({ visible: true, message: 'Your Secret Santa sent you a message (The Smiths)' });
  });

  it('says who wrote in the chosen language from `with`, not the server\'s English', async () => {
    await inLanguage('de');
    const { store, ctx } = setup();
    handleLiveEvent({ event: 'secret-santa-message', data: JSON.stringify(FROM_SANTA) }, ctx);
    expect(store.getState().shell.shellToast.message).toBe('Dein Wichtel hat dir geschrieben (The Smiths)');
    handleLiveEvent({ event: 'secret-santa-message', data: JSON.stringify({ ...FROM_SANTA, with: 'giftee' }) }, ctx);
    expect(store.getState().shell.shellToast.message).toBe('Dein Wichtelkind hat dir geschrieben (The Smiths)');
  });

  it('reminder-exchange-soon re-reads the match and says when and where, in every language', async () => {
    const { store, dispatch, ctx } = setup();
    handleLiveEvent({ event: 'reminder-exchange-soon', data: JSON.stringify(EXCHANGE) }, ctx);
    expect(dispatch).toHaveBeenCalledWith(expect.objectContaining({ type: 'api/invalidateTags', payload: ['SecretSanta'] }));
    expect(store.getState().shell.shellToast.message).toBe("Secret Santa exchange in 3 days: The Smiths: presents are swapped at Grandma's.");
    await inLanguage('fr');
    handleLiveEvent({ event: 'reminder-exchange-soon', data: JSON.stringify({ ...EXCHANGE, daysLeft: 0, place: '' }) }, ctx);
    expect(store.getState().shell.shellToast.message).toBe("Échange du Père Noël secret aujourd'hui: The Smiths");
    await inLanguage('es');
    handleLiveEvent({ event: 'reminder-exchange-soon', data: JSON.stringify({ ...EXCHANGE, daysLeft: 1 }) }, ctx);
    expect(store.getState().shell.shellToast.message).toBe("Intercambio del amigo invisible mañana: The Smiths: los regalos se intercambian en Grandma's.");
  });
});
