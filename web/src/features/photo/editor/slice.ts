import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * The sticker editor's state (docs/spec.md, section 3 'Sticker' and section 4 'Editor'): the placed
 * stickers and at most one selected. Pure, so every rule is unit-tested without a canvas; the page
 * keeps it with `useReducer(editorReducer, initialEditorState)` since it lives only while the
 * editor is open.
 */

export interface PlacedSticker {
  /** Timestamp plus a random string (docs/spec.md, section 9 'Generated ids'). */
  id: string;
  /** The catalogue entry it was made from. */
  stickerId: string;
  url: string;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
  isDragging: boolean;
  isSelected: boolean;
}

export interface EditorState {
  stickers: PlacedSticker[];
  selectedId: string | null;
}

export const STICKER_SIZE = 100;
export const STICKER_MIN_SIZE = 24;
export const STICKER_START_MIN = 50;
export const STICKER_START_MAX = 250;

export const initialEditorState: EditorState = { stickers: [], selectedId: null };

function withSelection(stickers: PlacedSticker[], selectedId: string | null): PlacedSticker[] {
  return stickers.map((s) => (s.isSelected === (s.id === selectedId) ? s : { ...s, isSelected: s.id === selectedId }));
}

function randomId(now: number, random: () => number): string {
  return `${now}-${random().toString(36).slice(2, 9)}`;
}

/** A whole-pixel start position in [50, 250]. */
export function randomStart(random: () => number = Math.random): number {
  return STICKER_START_MIN + Math.floor(random() * (STICKER_START_MAX - STICKER_START_MIN + 1));
}

export interface AddStickerInput {
  stickerId: string;
  url: string;
  /** Defaults to a random position in [50, 250] each way. */
  x?: number;
  y?: number;
  id?: string;
}

const editorSlice = createSlice({
  name: 'editor',
  initialState: initialEditorState,
  reducers: {
    /** Adds a 100×100 sticker and selects it. */
    stickerAdded: {
      reducer(state, action: PayloadAction<PlacedSticker>) {
        state.stickers.push(action.payload);
        state.selectedId = action.payload.id;
        state.stickers = withSelection(state.stickers, state.selectedId);
      },
      prepare(input: AddStickerInput, random: () => number = Math.random, now: number = Date.now()) {
        return {
          payload: {
            id: input.id ?? randomId(now, random),
            stickerId: input.stickerId,
            url: input.url,
            x: input.x ?? randomStart(random),
            y: input.y ?? randomStart(random),
            width: STICKER_SIZE,
            height: STICKER_SIZE,
            rotation: 0,
            isDragging: false,
            isSelected: true,
          } satisfies PlacedSticker,
        };
      },
    },
    stickerSelected(state, action: PayloadAction<string>) {
      if (!state.stickers.some((s) => s.id === action.payload)) return;
      state.selectedId = action.payload;
      state.stickers = withSelection(state.stickers, state.selectedId);
    },
    /** A tap on the empty canvas (or the photo). */
    selectionCleared(state) {
      state.selectedId = null;
      state.stickers = withSelection(state.stickers, null);
    },
    /** Dragging a sticker also selects it, so the bin acts on what was just moved. */
    dragStarted(state, action: PayloadAction<string>) {
      const sticker = state.stickers.find((s) => s.id === action.payload);
      if (!sticker) return;
      sticker.isDragging = true;
      state.selectedId = sticker.id;
      state.stickers = withSelection(state.stickers, state.selectedId);
    },
    dragEnded(state, action: PayloadAction<{ id: string; x: number; y: number }>) {
      const sticker = state.stickers.find((s) => s.id === action.payload.id);
      if (!sticker) return;
      sticker.isDragging = false;
      sticker.x = action.payload.x;
      sticker.y = action.payload.y;
    },
    /** The transform handle let go: the new box (never smaller than the minimum). */
    transformed(
      state,
      action: PayloadAction<{ id: string; x: number; y: number; width: number; height: number; rotation?: number }>,
    ) {
      const sticker = state.stickers.find((s) => s.id === action.payload.id);
      if (!sticker) return;
      const { x, y, width, height, rotation } = action.payload;
      sticker.x = x;
      sticker.y = y;
      sticker.width = Math.max(STICKER_MIN_SIZE, width);
      sticker.height = Math.max(STICKER_MIN_SIZE, height);
      if (rotation !== undefined) sticker.rotation = rotation;
    },
    /** The bin: removes the selected sticker. */
    selectedDeleted(state) {
      if (!state.selectedId) return;
      state.stickers = state.stickers.filter((s) => s.id !== state.selectedId);
      state.selectedId = null;
    },
  },
});

export const { stickerAdded, stickerSelected, selectionCleared, dragStarted, dragEnded, transformed, selectedDeleted } =
  editorSlice.actions;
export const editorReducer = editorSlice.reducer;

export function selectedSticker(state: EditorState): PlacedSticker | null {
  return state.stickers.find((s) => s.id === state.selectedId) ?? null;
}
