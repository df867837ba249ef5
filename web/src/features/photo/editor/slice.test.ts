import {
  dragEnded,
  dragStarted,
  editorReducer,
  initialEditorState,
  randomStart,
  selectedDeleted,
  selectedSticker,
  selectionCleared,
  stickerAdded,
  stickerSelected,
  transformed,
  type EditorState,
} from './slice';
import { STICKERS } from './stickers';

const star = { stickerId: 'star', url: 'data:image/svg+xml,star' };
const tree = { stickerId: 'tree', url: 'data:image/svg+xml,tree' };

function withTwo(): EditorState {
  let state = editorReducer(initialEditorState, stickerAdded({ ...star, id: 'a', x: 60, y: 70 }));
  state = editorReducer(state, stickerAdded({ ...tree, id: 'b', x: 200, y: 210 }));
  return state;
}

describe('sticker catalogue', () => {
  it('has 19 named stickers drawn as SVG data URLs', () => {
    expect(STICKERS).toHaveLength(19);
    expect(new Set(STICKERS.map((s) => s.id)).size).toBe(19);
    for (const s of STICKERS) {
      expect(s.name).toBeTruthy();
      expect(s.url).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    }
    expect(STICKERS.map((s) => s.name)).toContain('Ho Ho Ho Banner');
  });
});

describe('editor reducer', () => {
  it('adds a 100×100 sticker at a random position between 50 and 250 and selects it', () => {
    const values = [0.5, 0, 0.999]; // the id, then x, then y
    const random = () => values.shift() ?? 0.5;
    const state = editorReducer(initialEditorState, stickerAdded(star, random, 1_700_000_000_000));
    expect(state.stickers).toHaveLength(1);
    const [s] = state.stickers;
    expect(s).toMatchObject({ stickerId: 'star', url: star.url, width: 100, height: 100, isSelected: true, isDragging: false });
    expect(s.id).toMatch(/^1700000000000-/);
    expect(s.x).toBe(50);
    expect(s.y).toBe(250);
    expect(state.selectedId).toBe(s.id);
  });

  it('keeps random positions inside 50..250', () => {
    for (let i = 0; i < 200; i++) {
      const v = randomStart();
      expect(v).toBeGreaterThanOrEqual(50);
      expect(v).toBeLessThanOrEqual(250);
    }
  });

  it('selects the newest sticker and only one at a time', () => {
    const state = withTwo();
    expect(state.selectedId).toBe('b');
    expect(state.stickers.map((s) => s.isSelected)).toEqual([false, true]);
    const selected = editorReducer(state, stickerSelected('a'));
    expect(selected.selectedId).toBe('a');
    expect(selected.stickers.map((s) => s.isSelected)).toEqual([true, false]);
    expect(selectedSticker(selected)?.stickerId).toBe('star');
  });

  it('ignores selecting a sticker that is not there', () => {
    const state = withTwo();
    expect(editorReducer(state, stickerSelected('nope'))).toBe(state);
  });

  it('clears the selection when the empty canvas is tapped', () => {
    const state = editorReducer(withTwo(), selectionCleared());
    expect(state.selectedId).toBeNull();
    expect(state.stickers.every((s) => !s.isSelected)).toBe(true);
    expect(selectedSticker(state)).toBeNull();
  });

  it('moves a sticker by dragging, selecting it while dragged', () => {
    let state = editorReducer(withTwo(), dragStarted('a'));
    expect(state.selectedId).toBe('a');
    expect(state.stickers[0].isDragging).toBe(true);
    state = editorReducer(state, dragEnded({ id: 'a', x: 123.5, y: 42 }));
    expect(state.stickers[0]).toMatchObject({ x: 123.5, y: 42, isDragging: false, isSelected: true });
    expect(state.stickers[1]).toMatchObject({ x: 200, y: 210 });
  });

  it('resizes and rotates with the transform handle, never below the minimum size', () => {
    let state = editorReducer(withTwo(), transformed({ id: 'b', x: 190, y: 195, width: 160, height: 160, rotation: 15 }));
    expect(state.stickers[1]).toMatchObject({ x: 190, y: 195, width: 160, height: 160, rotation: 15 });
    state = editorReducer(state, transformed({ id: 'b', x: 190, y: 195, width: 3, height: 2 }));
    expect(state.stickers[1]).toMatchObject({ width: 24, height: 24, rotation: 15 });
  });

  it('deletes the selected sticker only', () => {
    const state = editorReducer(editorReducer(withTwo(), stickerSelected('a')), selectedDeleted());
    expect(state.stickers.map((s) => s.id)).toEqual(['b']);
    expect(state.selectedId).toBeNull();
  });

  it('deletes nothing when nothing is selected', () => {
    const state = editorReducer(withTwo(), selectionCleared());
    expect(editorReducer(state, selectedDeleted())).toBe(state);
  });
});
