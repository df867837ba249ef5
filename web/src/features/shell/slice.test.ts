import {
  dismissToast,
  hideShellToast,
  setBackgroundUrl,
  setSantaVisible,
  setWishlistCount,
  shellReducer,
  showShellToast,
  showToast,
  DEFAULT_TOAST_MS,
} from './slice';

const initial = () => shellReducer(undefined, { type: 'init' });

describe('shell slice', () => {
  it('starts with no toast, no overlay, a zero count and the default background', () => {
    const state = initial();
    expect(state.toast).toBeNull();
    expect(state.shellToast.visible).toBe(false);
    expect(state.santaVisible).toBe(false);
    expect(state.wishlistCount).toBe(0);
    expect(state.backgroundUrl).toBe('/backgrounds/01-santa-in-chimney.svg');
  });

  it('starts with a stored background theme when it parses', () => {
    localStorage.setItem(
      'currentBackgroundTheme',
      JSON.stringify({ id: 7, name: 'Reindeer and Sleigh', url: '/backgrounds/07-reindeer-and-sleigh.svg' }),
    );
    expect(initial().backgroundUrl).toBe('/backgrounds/07-reindeer-and-sleigh.svg');
  });

  it('keeps one toast at a time, the newest', () => {
    let state = shellReducer(initial(), showToast({ title: 'First' }));
    state = shellReducer(state, showToast({ title: 'Second', description: 'd', variant: 'destructive' }));
    expect(state.toast).toMatchObject({
      title: 'Second',
      description: 'd',
      variant: 'destructive',
      open: true,
      duration: DEFAULT_TOAST_MS,
    });
  });

  it('dismisses only the toast it was asked to', () => {
    let state = shellReducer(initial(), showToast({ title: 'Old' }));
    const oldId = state.toast!.id;
    state = shellReducer(state, showToast({ title: 'New' }));
    state = shellReducer(state, dismissToast(oldId));
    expect(state.toast?.title).toBe('New');
    state = shellReducer(state, dismissToast(state.toast!.id));
    expect(state.toast).toBeNull();
  });

  it('shows the shell toast and ignores a late hide for an older message', () => {
    let state = shellReducer(initial(), showShellToast('one'));
    const first = state.shellToast.id;
    state = shellReducer(state, showShellToast('two'));
    state = shellReducer(state, hideShellToast(first));
    expect(state.shellToast).toMatchObject({ message: 'two', visible: true });
    state = shellReducer(state, hideShellToast(state.shellToast.id));
    expect(state.shellToast.visible).toBe(false);
  });

  it('never lets the count go negative or fractional', () => {
    expect(shellReducer(initial(), setWishlistCount(4)).wishlistCount).toBe(4);
    expect(shellReducer(initial(), setWishlistCount(-2)).wishlistCount).toBe(0);
    expect(shellReducer(initial(), setWishlistCount(2.7)).wishlistCount).toBe(2);
    expect(shellReducer(initial(), setWishlistCount(Number.NaN)).wishlistCount).toBe(0);
  });

  it('toggles the overlay and changes the background', () => {
    expect(shellReducer(initial(), setSantaVisible(true)).santaVisible).toBe(true);
    expect(shellReducer(initial(), setBackgroundUrl('/x.svg')).backgroundUrl).toBe('/x.svg');
    expect(shellReducer(initial(), setBackgroundUrl('')).backgroundUrl).toBe('/backgrounds/01-santa-in-chimney.svg');
  });
});
