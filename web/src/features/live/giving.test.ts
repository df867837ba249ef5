import { makeStore } from '../../app/store';
import { inLanguage } from '../../test/i18n';
import { handleLiveEvent } from './events';

const THANKS = { itemName: 'Red bicycle', recipientName: 'Emma', message: 'I ride it every day!' };
const COMPLETE = { itemName: 'Lego castle', listName: 'Christmas', ownerName: 'Tom' };

function setup() {
  const store = makeStore();
  const dispatch = vi.spyOn(store, 'dispatch');
  return { store, dispatch, ctx: { dispatch: store.dispatch, currentCount: () => 0 } };
}

describe('giving together on the live stream', () => {
  it('thank-you re-reads "Gifts I gave" and shows who thanked for what, with the message', async () => {
    const { store, dispatch, ctx } = setup();
    handleLiveEvent({ event: 'thank-you', data: JSON.stringify(THANKS) }, ctx);
    expect(dispatch).toHaveBeenCalledWith(expect.objectContaining({ type: 'api/invalidateTags', payload: ['GiftsGiven'] }));
    expect(store.getState().shell.shellToast).toMatchObject({
      visible: true,
      message: 'Emma says thank you for Red bicycle: “I ride it every day!”',
    });
    await inLanguage('de');
    handleLiveEvent({ event: 'thank-you', data: JSON.stringify(THANKS) }, ctx);
    expect(store.getState().shell.shellToast.message).toBe('Emma sagt Danke für Red bicycle: “I ride it every day!”');
  });

  it('group-gift-complete re-reads the shared list, the shopping list and the totals, and says so', async () => {
    const { store, dispatch, ctx } = setup();
    handleLiveEvent({ event: 'group-gift-complete', data: JSON.stringify(COMPLETE) }, ctx);
    expect(dispatch).toHaveBeenCalledWith(
      expect.objectContaining({ type: 'api/invalidateTags', payload: ['Shared', 'Claims', 'Budgets'] }),
    );
    expect(store.getState().shell.shellToast.message).toBe('The group gift Lego castle for Tom is complete');
    await inLanguage('es');
    handleLiveEvent({ event: 'group-gift-complete', data: JSON.stringify(COMPLETE) }, ctx);
    expect(store.getState().shell.shellToast.message).toBe('El regalo conjunto Lego castle para Tom está completo');
  });
});
