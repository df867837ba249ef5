import { useTranslation } from 'react-i18next';
import { useCallback, useEffect, useReducer, useRef, useState, type RefObject } from 'react';
import { useNavigate } from 'react-router';
import { useToast } from '../../../app/shell/notices';
import { readCameraSide, storeCameraSide, storeCapturedImage, storeScanResult, type CameraSide } from '../flow';
import { useScanLookupView } from '../scanLookup';
import { createLiveScanner } from './barcode';
import { captureSimulation, captureVideoFrame } from './capture';
import { CameraController, cameraSupported, type CameraMode } from './controller';
import {
  cameraActions as act,
  cameraReducer,
  initialCameraSession,
  isUsable,
  NO_CAMERA,
  NOT_SUPPORTED,
  simulationReasonKey,
  type CameraAction,
  type CameraSession,
} from './session';

/** docs/spec.md, section 9: switching sides takes about 0.3 s. */
export const SWITCH_DELAY_MS = 300;
export const READER_ID = 'barcode-reader';

export const otherSide = (side: CameraSide): CameraSide => (side === 'front' ? 'back' : 'front');
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 'granted', 'denied' or 'prompt'; 'prompt' where the browser cannot tell (no Permissions API for cameras). */
async function cameraPermission(): Promise<PermissionState> {
  try {
    const status = await navigator.permissions?.query({ name: 'camera' as PermissionName });
    return status?.state ?? 'prompt';
  } catch {
    return 'prompt';
  }
}

export interface CameraElements {
  video: RefObject<HTMLVideoElement | null>;
  viewfinder: RefObject<HTMLDivElement | null>;
}

export interface CameraSessionApi {
  session: CameraSession;
  dispatch: (action: CameraAction) => void;
  controller: CameraController;
  /** Opens the camera (first time, or again from the prompt or simulation). */
  start: () => void;
  enterSimulation: (reason: string) => void;
  switchSide: () => Promise<void>;
  changeMode: (mode: CameraMode) => Promise<void>;
  /** A barcode was read: keep it and the frame it was found in, then show what it names (or decorate). */
  onDetected: (code: string, frame?: string) => Promise<void>;
  /** The scan the product view shows, when the app provides one. */
  scanned: { code: string; frame: string } | null;
}

/**
 * Runs the camera for /camera: asks for access, opens, switches sides and modes through the
 * CameraController, and falls back to the simulation picture. The state is `session.ts`'s reducer.
 */
export function useCameraSession(initialMode: CameraMode, scanQuery: boolean, el: CameraElements): CameraSessionApi {
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useTranslation('photo');
  const [session, dispatch] = useReducer(cameraReducer, undefined, () => initialCameraSession(initialMode, readCameraSide()));
  // Handlers that outlive a render (the scanner's callback, the arrival check) read the latest state here.
  const latest = useRef(session);
  useEffect(() => {
    latest.current = session;
  }, [session]);

  const detected = useRef(false);
  const productView = useScanLookupView() !== null;
  const [scanned, setScanned] = useState<{ code: string; frame: string } | null>(null);
  const onDetected = useCallback(
    async (code: string, frame?: string) => {
      if (detected.current) return;
      detected.current = true;
      toast({ title: t('camera.detected'), description: t('camera.detectedText', { code }) });
      storeScanResult(code);
      const image = frame ?? (await captureSimulation('barcode'));
      storeCapturedImage(image);
      if (productView) setScanned({ code, frame: image });
      else navigate('/edit-photo?source=scan');
    },
    [navigate, toast, t, productView],
  );
  const onDetectedRef = useRef(onDetected);
  useEffect(() => {
    onDetectedRef.current = onDetected;
  }, [onDetected]);

  const controllerRef = useRef<CameraController | null>(null);
  if (!controllerRef.current) {
    controllerRef.current = new CameraController({
      video: () => el.video.current,
      loadScanner: () => createLiveScanner(READER_ID),
      onBarcode: (code) => {
        const video = controllerRef.current?.scannerVideo();
        let frame: string | undefined;
        try {
          frame = video ? captureVideoFrame(video) : undefined;
        } catch {
          frame = undefined;
        }
        void controllerRef.current?.close();
        void onDetectedRef.current(code, frame);
      },
    });
  }
  const controller = controllerRef.current;

  /** Scales the barcode reader's wide video down so it covers the viewfinder. */
  const fitReader = useCallback(() => {
    const box = el.viewfinder.current;
    const reader = document.getElementById(READER_ID);
    const video = reader?.querySelector('video');
    if (!box || !reader || !video || !video.clientWidth || !video.clientHeight) return;
    const scale = Math.max(box.clientWidth / video.clientWidth, box.clientHeight / video.clientHeight);
    reader.style.setProperty('--reader-scale', String(scale));
  }, [el.viewfinder]);

  useEffect(() => {
    window.addEventListener('resize', fitReader);
    return () => window.removeEventListener('resize', fitReader);
  }, [fitReader]);

  /** Opens `mode` on `side`; returns whether the new stream has a torch. */
  const open = useCallback(
    async (mode: CameraMode, side: CameraSide, exact = false): Promise<boolean> => {
      await controller.open(mode, side, exact);
      if (mode === 'barcode') {
        const video = controller.scannerVideo();
        video?.addEventListener('resize', fitReader);
        video?.addEventListener('playing', fitReader);
        fitReader();
      }
      return mode === 'photo' && controller.torchSupported();
    },
    [controller, fitReader],
  );

  const enterSimulation = useCallback(
    (reason: string) => {
      void controller.close();
      dispatch(act.simulation(reason));
      toast({ title: t('camera.simulation'), description: t(simulationReasonKey(reason)) });
    },
    [controller, toast, t],
  );

  const startWith = useCallback(
    async (mode: CameraMode, side: CameraSide) => {
      if (!cameraSupported()) return enterSimulation(NOT_SUPPORTED);
      dispatch(act.opening());
      try {
        dispatch(act.opened({ torch: await open(mode, side) }));
        // Arriving through /scan, the scan toast stays the headline (one toast shows at a time).
        if (scanQuery && mode === 'barcode') {
          toast({ title: t('camera.scanActivated'), description: t(`camera.scanReady_${side}`) });
        } else {
          toast({ title: t(`camera.ready_${side}`) });
        }
      } catch (err) {
        console.warn('camera failed', err);
        enterSimulation(NO_CAMERA);
      }
    },
    [open, enterSimulation, toast, scanQuery, t],
  );

  // On arrival: start at once if the camera is already allowed, otherwise ask first.
  useEffect(() => {
    let cancelled = false;
    if (scanQuery) toast({ title: t('camera.scanActivated'), description: t('camera.pointAtBarcode') });
    if (!cameraSupported()) {
      enterSimulation(NOT_SUPPORTED);
    } else {
      void cameraPermission().then((state) => {
        if (cancelled) return;
        if (state === 'granted') void startWith(latest.current.mode, readCameraSide());
        else if (state === 'denied') enterSimulation(NO_CAMERA);
        else dispatch(act.permissionNeeded());
      });
    }
    return () => {
      cancelled = true;
    };
    // Once per visit: later changes go through the handlers below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The camera is closed when the screen is left.
  useEffect(() => {
    controller.activate();
    return () => void controller.dispose();
  }, [controller]);

  // Torch follows the flash switch while a photo camera with a torch is open.
  const { status, mode, torch, flash, side } = session;
  useEffect(() => {
    if (status !== 'ready' || mode !== 'photo' || !torch) return;
    controller.setTorch(flash).catch((err: unknown) => console.warn('torch', err));
  }, [flash, torch, status, mode, controller]);

  async function switchSide() {
    if (!isUsable(session)) return;
    const next = otherSide(side);
    const simulation = status === 'simulation';
    dispatch(act.switching());
    if (!simulation) await controller.close();
    await sleep(SWITCH_DELAY_MS);
    try {
      const hasTorch = simulation ? false : await open(mode, next, true);
      storeCameraSide(next);
      dispatch(act.switched({ side: next, simulation, torch: hasTorch }));
      toast({ title: t(`camera.active_${next}`) });
    } catch (err) {
      console.warn('camera switch failed', err);
      try {
        dispatch(act.opened({ torch: await open(mode, side) }));
      } catch {
        enterSimulation(NO_CAMERA);
      }
      toast({ title: t('camera.switchFailed'), description: t('camera.switchFailedText'), variant: 'destructive' });
    }
  }

  async function changeMode(next: CameraMode) {
    if (next === mode) return;
    dispatch(act.modeChanged(next));
    if (status !== 'ready') return;
    dispatch(act.opening());
    try {
      dispatch(act.opened({ torch: await open(next, side) }));
    } catch (err) {
      console.warn('camera failed', err);
      enterSimulation(NO_CAMERA);
    }
  }

  return {
    session,
    dispatch,
    controller,
    start: () => void startWith(mode, side),
    enterSimulation,
    switchSide,
    changeMode,
    onDetected,
    scanned,
  };
}
