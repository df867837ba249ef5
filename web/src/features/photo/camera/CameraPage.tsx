import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { BarcodeIcon, CameraIcon, ImageIcon } from '../../../components/icons';
import { Spinner } from '../../../components/Spinner';
import { useToast } from '../../../app/shell/notices';
import { dataUrlToFile } from '../../../lib/dataUrl';
import { imageFileToDataUrl } from '../../../lib/imageFile';
import {
  clearScan,
  readCameraSide,
  storeCameraSide,
  storeCapturedImage,
  storeScanResult,
  type CameraSide,
} from '../flow';
import { usePageTitle } from '../../../lib/usePageTitle';
import { RecognitionOverlay } from '../recognition/RecognitionOverlay';
import { createLiveScanner, scanImageFile } from './barcode';
import { captureSimulation, captureVideoFrame } from './capture';
import { CameraController, cameraSupported, type CameraMode } from './controller';
import { SIMULATED_BARCODE, simulationImageUrl } from './simulation';
import './camera.css';

/** SPEC 9: switching sides takes about 0.3 s; the simulated scanner answers after 1.5 s. */
export const SWITCH_DELAY_MS = 300;
export const SIMULATED_SCAN_MS = 1500;

const READER_ID = 'barcode-reader';
const FILE_READER_ID = 'barcode-file-reader';

type Status = 'checking' | 'prompt' | 'starting' | 'ready' | 'switching' | 'simulation';

const sideName = (side: CameraSide) => (side === 'front' ? 'Front' : 'Back');
const otherSide = (side: CameraSide): CameraSide => (side === 'front' ? 'back' : 'front');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 'granted', 'denied' or 'prompt'; 'prompt' where the browser cannot tell (no Permissions API for cameras). */
async function cameraPermission(): Promise<PermissionState> {
  try {
    const status = await navigator.permissions?.query({ name: 'camera' as PermissionName });
    return status?.state ?? 'prompt';
  } catch {
    return 'prompt';
  }
}

/**
 * /camera (SPEC 'Camera'): photo or barcode mode, front/back switch, flash, capture, and a
 * simulation mode with our own picture when there is no usable camera.
 */
export default function CameraPage() {
  usePageTitle('Camera');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const toast = useToast();
  const scanQuery = params.get('mode') === 'scan';

  const [mode, setMode] = useState<CameraMode>(scanQuery ? 'barcode' : 'photo');
  const [side, setSide] = useState<CameraSide>(readCameraSide);
  const [status, setStatus] = useState<Status>('checking');
  const [simulationReason, setSimulationReason] = useState('');
  const [flash, setFlash] = useState(false);
  const [torch, setTorch] = useState(false);
  const [flashBurst, setFlashBurst] = useState(false);
  const [busy, setBusy] = useState(false);
  const [captured, setCaptured] = useState<string | null>(null);

  const videoRef = useRef<HTMLVideoElement>(null);
  const viewfinderRef = useRef<HTMLDivElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const detectedRef = useRef(false);
  const modeRef = useRef(mode);
  modeRef.current = mode;

  // --- barcode found: keep it, and the frame it was found in, then decorate that photo -------
  const onDetected = useCallback(
    async (code: string, frame?: string) => {
      if (detectedRef.current) return;
      detectedRef.current = true;
      toast({ title: 'Barcode Detected', description: `Code: ${code}` });
      storeScanResult(code);
      storeCapturedImage(frame ?? (await captureSimulation('barcode')));
      navigate('/edit-photo?source=scan');
    },
    [navigate, toast],
  );

  const controllerRef = useRef<CameraController | null>(null);
  const onDetectedRef = useRef(onDetected);
  onDetectedRef.current = onDetected;
  if (!controllerRef.current) {
    controllerRef.current = new CameraController({
      video: () => videoRef.current,
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
    const box = viewfinderRef.current;
    const reader = document.getElementById(READER_ID);
    const video = reader?.querySelector('video');
    if (!box || !reader || !video || !video.clientWidth || !video.clientHeight) return;
    const scale = Math.max(box.clientWidth / video.clientWidth, box.clientHeight / video.clientHeight);
    reader.style.setProperty('--reader-scale', String(scale));
  }, []);

  useEffect(() => {
    window.addEventListener('resize', fitReader);
    return () => window.removeEventListener('resize', fitReader);
  }, [fitReader]);

  /** After the camera opened: what the new stream can do, and the reader's size. */
  const afterOpen = useCallback(
    (openedMode: CameraMode) => {
      setTorch(openedMode === 'photo' && controller.torchSupported());
      if (openedMode !== 'barcode') return;
      const video = controller.scannerVideo();
      if (!video) return;
      video.addEventListener('resize', fitReader);
      video.addEventListener('playing', fitReader);
      fitReader();
    },
    [controller, fitReader],
  );

  const enterSimulation = useCallback(
    (reason: string) => {
      void controller.close();
      setSimulationReason(reason);
      setStatus('simulation');
      setTorch(false);
      toast({ title: 'Simulation Mode', description: reason });
    },
    [controller, toast],
  );

  /** Opens the camera for the first time (or again after simulation). */
  const startCamera = useCallback(
    async (withMode: CameraMode, withSide: CameraSide) => {
      if (!cameraSupported()) {
        enterSimulation('Camera is not supported in this environment');
        return;
      }
      setStatus('starting');
      try {
        await controller.open(withMode, withSide);
        afterOpen(withMode);
        setStatus('ready');
        // Arriving through /scan, the scan toast stays the headline (one toast shows at a time).
        if (scanQuery && withMode === 'barcode') {
          toast({ title: 'Scan Mode Activated', description: `${sideName(withSide)} Camera Ready: point it at a product barcode.` });
        } else {
          toast({ title: `${sideName(withSide)} Camera Ready` });
        }
      } catch (err) {
        console.warn('camera failed', err);
        enterSimulation('Could not access camera. Using simulation mode.');
      }
    },
    [controller, enterSimulation, afterOpen, toast, scanQuery],
  );

  // On arrival: start at once if the camera is already allowed, otherwise ask first.
  useEffect(() => {
    let cancelled = false;
    if (scanQuery) toast({ title: 'Scan Mode Activated', description: 'Point the camera at a product barcode.' });
    if (!cameraSupported()) {
      enterSimulation('Camera is not supported in this environment');
    } else {
      void cameraPermission().then((state) => {
        if (cancelled) return;
        if (state === 'granted') void startCamera(modeRef.current, readCameraSide());
        else if (state === 'denied') enterSimulation('Could not access camera. Using simulation mode.');
        else setStatus('prompt');
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
  useEffect(() => {
    if (status !== 'ready' || mode !== 'photo' || !torch) return;
    controller.setTorch(flash).catch((err: unknown) => console.warn('torch', err));
  }, [flash, torch, status, mode, controller]);

  async function switchSide() {
    if (status !== 'ready' && status !== 'simulation') return;
    const previous = side;
    const next = otherSide(side);
    const wasSimulation = status === 'simulation';
    setStatus('switching');
    if (wasSimulation) {
      await sleep(SWITCH_DELAY_MS);
      setSide(next);
      storeCameraSide(next);
      setStatus('simulation');
      toast({ title: `${sideName(next)} Camera Active` });
      return;
    }
    await controller.close();
    await sleep(SWITCH_DELAY_MS);
    try {
      await controller.open(mode, next, true);
      afterOpen(mode);
      setSide(next);
      storeCameraSide(next);
      setStatus('ready');
      toast({ title: `${sideName(next)} Camera Active` });
    } catch (err) {
      console.warn('camera switch failed', err);
      try {
        await controller.open(mode, previous);
        afterOpen(mode);
        setStatus('ready');
      } catch {
        enterSimulation('Could not access camera. Using simulation mode.');
      }
      toast({ title: 'Camera Switch Failed', description: 'Could not switch cameras. Try again.', variant: 'destructive' });
    }
  }

  async function changeMode(next: CameraMode) {
    if (next === mode) return;
    setMode(next);
    if (next === 'barcode') setFlash(false);
    if (status !== 'ready') return;
    setStatus('starting');
    try {
      await controller.open(next, side);
      afterOpen(next);
      setStatus('ready');
    } catch (err) {
      console.warn('camera failed', err);
      enterSimulation('Could not access camera. Using simulation mode.');
    }
  }

  function viewfinderAspect(): number | undefined {
    const box = viewfinderRef.current;
    return box && box.clientHeight ? box.clientWidth / box.clientHeight : undefined;
  }

  async function capturePhoto() {
    if (flash && !torch) {
      // No torch on this camera: light the subject with the screen, as front cameras do.
      setFlashBurst(true);
      await sleep(180);
    }
    try {
      const image =
        status === 'simulation' ? await captureSimulation('photo') : captureVideoFrame(videoRef.current!, viewfinderAspect());
      clearScan();
      toast({ title: 'Image Captured!', description: 'Analyze it, or close to decorate it with stickers.' });
      setCaptured(image);
    } catch (err) {
      console.warn('capture failed', err);
      toast({ title: "Couldn't capture image", description: 'Please try again or use a different device', variant: 'destructive' });
    } finally {
      setFlashBurst(false);
    }
  }

  async function scanNow() {
    setBusy(true);
    if (status === 'simulation') {
      toast({ title: 'Scanning for barcode...', description: 'Hold the barcode steady inside the frame.', duration: SIMULATED_SCAN_MS });
      await sleep(SIMULATED_SCAN_MS);
      await onDetected(SIMULATED_BARCODE);
      return;
    }
    // The live scanner reads continuously; the button reads the current frame once more, now.
    try {
      const video = controller.scannerVideo();
      if (!video) throw new Error('no picture');
      const frame = captureVideoFrame(video);
      const file = dataUrlToFile(frame, 'frame.jpg');
      const code = await scanImageFile(file, FILE_READER_ID);
      await controller.close();
      await onDetected(code, frame);
    } catch (err) {
      toast({
        title: 'No barcode found',
        description: err instanceof Error && err.message !== 'no picture' ? err.message : 'Hold the barcode steady inside the frame.',
      });
      setBusy(false);
    }
  }

  async function onCapture() {
    if (busy || captured) return;
    if (status !== 'ready' && status !== 'simulation') return;
    if (mode === 'photo') await capturePhoto();
    else await scanNow();
  }

  async function onFileChosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      toast({ title: 'Please select an image file', variant: 'destructive' });
      return;
    }
    setBusy(true);
    try {
      const image = await imageFileToDataUrl(file);
      if (mode === 'barcode') {
        const code = await scanImageFile(file, FILE_READER_ID);
        await controller.close();
        await onDetected(code, image);
        return;
      }
      clearScan();
      toast({ title: 'Image Captured!', description: 'Analyze it, or close to decorate it with stickers.' });
      setCaptured(image);
    } catch (err) {
      const message = err instanceof Error ? err.message : 'Error reading file';
      toast({
        title: mode === 'barcode' ? 'No barcode found' : 'Error reading file',
        description: message,
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  }

  const live = status === 'starting' || status === 'ready' || status === 'switching';
  const canSwitch = status === 'ready' || status === 'simulation';
  const canCapture = (status === 'ready' || status === 'simulation') && !busy && !captured;

  return (
    <section className="page camera-page" aria-labelledby="camera-title">
      <div className="page__head">
        <h1 id="camera-title" className="page__title">
          {mode === 'barcode' ? 'Scan a Barcode' : 'Take a Photo'}
        </h1>
        <div className="segmented camera-mode" role="group" aria-label="Camera mode">
          {(['photo', 'barcode'] as const).map((m) => (
            <button
              key={m}
              type="button"
              className={`segmented__option${mode === m ? ' segmented__option--active' : ''}`}
              aria-pressed={mode === m}
              onClick={() => void changeMode(m)}
              disabled={status === 'starting' || status === 'switching' || busy}
            >
              {m === 'photo' ? 'Photo' : 'Barcode'}
            </button>
          ))}
        </div>
      </div>

      <p className="visually-hidden" aria-live="polite" data-testid="camera-mode">
        {mode === 'barcode' ? 'Barcode mode' : 'Photo mode'}
      </p>

      <div
        ref={viewfinderRef}
        className={`viewfinder viewfinder--${mode}${side === 'front' ? ' viewfinder--front' : ''}`}
        data-testid="viewfinder"
        data-status={status}
      >
        <video
          ref={videoRef}
          className={`viewfinder__video${live && mode === 'photo' ? '' : ' viewfinder__layer--hidden'}`}
          playsInline
          muted
          autoPlay
          aria-label="Camera preview"
        />
        <div
          id={READER_ID}
          className={`viewfinder__reader${live && mode === 'barcode' ? '' : ' viewfinder__layer--hidden'}`}
          aria-label="Barcode scanner preview"
        />
        <div id={FILE_READER_ID} className="viewfinder__file-reader" aria-hidden="true" />

        {status === 'simulation' && (
          <img className="viewfinder__simulation" src={simulationImageUrl(mode)} alt="Simulated camera picture" />
        )}
        {mode === 'barcode' && (status === 'ready' || status === 'simulation') && (
          <div className="viewfinder__guide" aria-hidden="true" />
        )}
        {(status === 'checking' || status === 'starting' || status === 'switching') && (
          <div className="viewfinder__veil">
            <Spinner label={status === 'switching' ? 'Switching camera' : 'Starting camera'} />
            {status === 'switching' && <p>Switching camera...</p>}
          </div>
        )}
        {status === 'prompt' && (
          <div className="viewfinder__prompt card">
            <CameraIcon size={40} />
            <h2 className="viewfinder__prompt-title">Camera access needed</h2>
            <p>Allow the camera to photograph or scan your gift. Nothing is recorded or sent until you choose to.</p>
            <button type="button" className="button button--primary" onClick={() => void startCamera(mode, side)}>
              Enable Camera Access
            </button>
            <button
              type="button"
              className="button button--link"
              onClick={() => enterSimulation('Could not access camera. Using simulation mode.')}
            >
              Continue without a camera
            </button>
          </div>
        )}
        {status === 'simulation' && (
          <div className="viewfinder__banner" role="note">
            <span>{simulationReason}</span>
            {simulationReason !== 'Camera is not supported in this environment' && (
              <button type="button" className="button button--small button--light" onClick={() => void startCamera(mode, side)}>
                Enable Camera Access
              </button>
            )}
          </div>
        )}

        <div className="viewfinder__controls">
          <button
            type="button"
            className="camera-chip"
            onClick={() => void switchSide()}
            disabled={!canSwitch}
            aria-label={`Switch to the ${otherSide(side)} camera`}
          >
            <SwitchIcon /> {sideName(side)}
          </button>
          <button
            type="button"
            className="camera-chip"
            onClick={() => setFlash((f) => !f)}
            disabled={mode === 'barcode' || !(status === 'ready' || status === 'simulation')}
            aria-pressed={flash}
            title={mode === 'barcode' ? 'Flash is off while scanning' : torch ? 'Torch' : 'Screen flash'}
          >
            <FlashIcon on={flash && mode === 'photo'} /> Flash
          </button>
        </div>
        {flashBurst && <div className="viewfinder__flash" aria-hidden="true" />}
      </div>

      <div className="camera-actions">
        <label className={`camera-side-button${busy ? ' camera-side-button--disabled' : ''}`}>
          <input
            ref={fileRef}
            type="file"
            accept="image/*"
            className="visually-hidden"
            onChange={(e) => void onFileChosen(e)}
            disabled={busy}
          />
          <ImageIcon size={22} />
          <span>{mode === 'barcode' ? 'Scan a photo' : 'Choose photo'}</span>
        </label>
        <button
          type="button"
          className={`capture-button capture-button--${mode}`}
          onClick={() => void onCapture()}
          disabled={!canCapture}
          aria-label={mode === 'barcode' ? 'Scan barcode' : 'Take photo'}
        >
          {mode === 'barcode' ? <BarcodeIcon size={30} /> : <span className="capture-button__dot" />}
        </button>
        <p className="camera-hint">
          {mode === 'barcode' ? 'Hold the barcode inside the frame: it is read automatically.' : 'Frame your gift and tap the button.'}
        </p>
      </div>

      {captured && <RecognitionOverlay image={captured} />}
    </section>
  );
}

function SwitchIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M4 8h11l-3-3M20 16H9l3 3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function FlashIcon({ on }: { on: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill={on ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M13 2 4 14h7l-1 8 9-12h-7z" strokeLinejoin="round" />
    </svg>
  );
}
