import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { CameraSide } from '../flow';
import type { CameraMode } from './controller';

/**
 * The camera screen's state (docs/spec.md, section 4 'Camera') as a pure reducer, like the
 * editor's: what the screen shows follows from these actions, and every rule is unit-tested without
 * a camera. The page keeps it with `useReducer`; `useCameraSession` runs the camera and dispatches.
 */

/** The one message for every camera that cannot be opened (docs/spec.md, section 8). */
export const NO_CAMERA = 'Could not access camera. Using simulation mode.';
export const NOT_SUPPORTED = 'Camera is not supported in this environment';

/** The catalog key ('photo' namespace) of a simulation reason; the reason is kept in English in the state. */
export function simulationReasonKey(reason: string): string {
  return reason === NO_CAMERA ? 'camera.noCamera' : reason === NOT_SUPPORTED ? 'camera.notSupported' : reason;
}

export type CameraStatus = 'checking' | 'prompt' | 'starting' | 'ready' | 'switching' | 'simulation';

export interface CameraSession {
  mode: CameraMode;
  side: CameraSide;
  status: CameraStatus;
  /** Why the simulation picture is shown (NO_CAMERA or NOT_SUPPORTED). */
  simulationReason: string;
  /** The flash switch. */
  flash: boolean;
  /** The open photo camera has a torch the flash can light. */
  torch: boolean;
  /** The screen flash while a torchless photo is taken. */
  flashBurst: boolean;
  /** A scan or a chosen file is being read. */
  busy: boolean;
  /** The photo taken, shown in Product Recognition. */
  captured: string | null;
}

export function initialCameraSession(mode: CameraMode, side: CameraSide): CameraSession {
  return {
    mode,
    side,
    status: 'checking',
    simulationReason: '',
    flash: false,
    torch: false,
    flashBurst: false,
    busy: false,
    captured: null,
  };
}

const cameraSlice = createSlice({
  name: 'camera',
  initialState: () => initialCameraSession('photo', 'back'),
  reducers: {
    permissionNeeded(state) {
      state.status = 'prompt';
    },
    opening(state) {
      state.status = 'starting';
    },
    /** The camera opened (first time, after a mode change, or after a failed switch). */
    opened(state, action: PayloadAction<{ torch: boolean }>) {
      state.status = 'ready';
      state.torch = state.mode === 'photo' && action.payload.torch;
    },
    simulation(state, action: PayloadAction<string>) {
      state.status = 'simulation';
      state.simulationReason = action.payload;
      state.torch = false;
    },
    switching(state) {
      state.status = 'switching';
    },
    /** The other side is open (or, in simulation, shown); the status returns to what it was. */
    switched(state, action: PayloadAction<{ side: CameraSide; simulation: boolean; torch?: boolean }>) {
      state.side = action.payload.side;
      state.status = action.payload.simulation ? 'simulation' : 'ready';
      if (!action.payload.simulation) state.torch = state.mode === 'photo' && !!action.payload.torch;
    },
    modeChanged(state, action: PayloadAction<CameraMode>) {
      state.mode = action.payload;
      // Scanning needs no light from us; the switch is disabled in barcode mode.
      if (action.payload === 'barcode') state.flash = false;
    },
    flashToggled(state) {
      if (state.mode === 'photo') state.flash = !state.flash;
    },
    flashBurst(state, action: PayloadAction<boolean>) {
      state.flashBurst = action.payload;
    },
    busy(state, action: PayloadAction<boolean>) {
      state.busy = action.payload;
    },
    captured(state, action: PayloadAction<string>) {
      state.captured = action.payload;
      state.flashBurst = false;
    },
  },
});

export const cameraActions = cameraSlice.actions;
export const cameraReducer = cameraSlice.reducer;
export type CameraAction = ReturnType<(typeof cameraActions)[keyof typeof cameraActions]>;

/** The camera or the simulation picture is on screen and can be used. */
export const isUsable = (s: CameraSession) => s.status === 'ready' || s.status === 'simulation';
/** The video (or the barcode reader) is shown, not the simulation picture. */
export const isLive = (s: CameraSession) => s.status === 'starting' || s.status === 'ready' || s.status === 'switching';
export const canCapture = (s: CameraSession) => isUsable(s) && !s.busy && !s.captured;
export const isWaiting = (s: CameraSession) => s.status === 'checking' || s.status === 'starting' || s.status === 'switching';
