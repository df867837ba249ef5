import {
  dismissToast,
  hideShellToast,
  hideSanta,
  setBackgroundUrl,
  shellReducer,
  showSanta,
  showShellToast,
  showToast,
  DEFAULT_TOAST_MS,
} from './slice';

const initial = () => shellReducer(undefined, { type: 'init' });

describe('shell slice', () => {
  it('starts with no toast, no overlay and the default background', () => {
    const state = initial();
    expect(state.toast).toBeNull();
    expect(state.shellToast.visible).toBe(false);
    expect(state.santa.visible).toBe(false);
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

  it('shows the overlay and ignores a late hide for an earlier showing', () => {
    let state = shellReducer(initial(), showSanta());
    const first = state.santa.id;
    state = shellReducer(state, showSanta());
    state = shellReducer(state, hideSanta(first));
    expect(state.santa.visible).toBe(true);
    state = shellReducer(state, hideSanta(state.santa.id));
    expect(state.santa.visible).toBe(false);
    expect(shellReducer(shellReducer(initial(), showSanta()), hideSanta()).santa.visible).toBe(false);
  });

  it('changes the background', () => {
    expect(shellReducer(initial(), setBackgroundUrl('/x.svg')).backgroundUrl).toBe('/x.svg');
    expect(shellReducer(initial(), setBackgroundUrl('')).backgroundUrl).toBe('/backgrounds/01-santa-in-chimney.svg');
  });
});
