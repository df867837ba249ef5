import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { storedBackground } from '../../lib/backgrounds';

export type ToastVariant = 'default' | 'destructive';

/** The titled toast (one shown at a time, docs/spec.md, section 3 'Toast notification'). */
export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  open: boolean;
  duration: number;
}

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  duration?: number;
}

export const DEFAULT_TOAST_MS = 5000;
export const SHELL_TOAST_MS = 3000;
export const SANTA_ANIMATION_MS = 3500;

/**
 * What the frame around every screen shows besides the screen itself. The wishlist count is not
 * here: the header reads it from the RTK Query cache of the wishlist.
 */
export interface ShellState {
  toast: Toast | null;
  /** The small message box at the bottom of the screen (docs/spec.md, section 3 'simple shell toast'). */
  shellToast: { id: number; message: string; visible: boolean };
  /** The 'Ho Ho Ho!' overlay; `id` lets a late hide of an older showing be ignored. */
  santa: { id: number; visible: boolean };
  backgroundUrl: string;
}

let nextToastId = 1;

function initialState(): ShellState {
  return {
    toast: null,
    shellToast: { id: 0, message: '', visible: false },
    santa: { id: 0, visible: false },
    backgroundUrl: storedBackground().url,
  };
}

const shellSlice = createSlice({
  name: 'shell',
  initialState,
  reducers: {
    showToast: {
      reducer(state, action: PayloadAction<Toast>) {
        state.toast = action.payload;
      },
      prepare(input: ToastInput) {
        return {
          payload: {
            id: nextToastId++,
            title: input.title,
            description: input.description,
            variant: input.variant ?? 'default',
            open: true,
            duration: input.duration ?? DEFAULT_TOAST_MS,
          } satisfies Toast,
        };
      },
    },
    dismissToast(state, action: PayloadAction<number | undefined>) {
      if (state.toast && (action.payload === undefined || state.toast.id === action.payload)) {
        state.toast = null;
      }
    },
    showShellToast(state, action: PayloadAction<string>) {
      state.shellToast = { id: state.shellToast.id + 1, message: action.payload, visible: action.payload !== '' };
    },
    hideShellToast(state, action: PayloadAction<number>) {
      if (state.shellToast.id === action.payload) state.shellToast.visible = false;
    },
    showSanta(state) {
      state.santa = { id: state.santa.id + 1, visible: true };
    },
    /** Hides the overlay; with an id, only if that showing is still the current one. */
    hideSanta(state, action: PayloadAction<number | undefined>) {
      if (action.payload === undefined || state.santa.id === action.payload) state.santa.visible = false;
    },
    setBackgroundUrl(state, action: PayloadAction<string>) {
      if (action.payload) state.backgroundUrl = action.payload;
    },
  },
});

export const { showToast, dismissToast, showShellToast, hideShellToast, showSanta, hideSanta, setBackgroundUrl } =
  shellSlice.actions;

export const shellReducer = shellSlice.reducer;
