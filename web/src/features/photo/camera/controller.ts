import type { CameraSide } from '../flow';
import type { BarcodeScanner } from './barcode';

export type CameraMode = 'photo' | 'barcode';

/** docs/spec.md, section 7 'Camera uses the device video stream, ideal 1280x720, audio off'. */
export function videoConstraints(side: CameraSide, exact: boolean): MediaTrackConstraints {
  const facingMode = side === 'front' ? 'user' : 'environment';
  return {
    facingMode: exact ? { exact: facingMode } : { ideal: facingMode },
    width: { ideal: 1280 },
    height: { ideal: 720 },
  };
}

export function cameraSupported(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';
}

interface ControllerDeps {
  video: () => HTMLVideoElement | null;
  /** Loads html5-qrcode (a dynamic import: only the camera screen downloads it). */
  loadScanner: () => Promise<BarcodeScanner>;
  onBarcode: (code: string) => void;
}

/**
 * Owns the camera: in photo mode a MediaStream shown in our <video>; in barcode mode
 * html5-qrcode's own stream, decoding as it plays. Operations run one after another (a switch
 * must stop the old stream before asking for the new one, and React may unmount mid-start), so
 * a camera is never left open.
 */
export class CameraController {
  private queue: Promise<unknown> = Promise.resolve();
  private stream: MediaStream | null = null;
  private scanner: BarcodeScanner | null = null;
  private disposed = false;

  constructor(private readonly deps: ControllerDeps) {}

  private run<T>(op: () => Promise<T>): Promise<T> {
    const result = this.queue.then(op);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Opens the camera of `side` for `mode`. `exact` makes a missing camera of that side an error. */
  open(mode: CameraMode, side: CameraSide, exact = false): Promise<void> {
    return this.run(async () => {
      await this.stopAll();
      if (this.disposed) return;
      if (mode === 'photo') {
        const stream = await navigator.mediaDevices.getUserMedia({ audio: false, video: videoConstraints(side, exact) });
        if (this.disposed) {
          stream.getTracks().forEach((t) => t.stop());
          return;
        }
        this.stream = stream;
        const video = this.deps.video();
        if (video) {
          video.srcObject = stream;
          // Autoplay rules do not stop a muted inline video; a refused play() is not a camera failure.
          try {
            await video.play();
          } catch {
            /* autoPlay starts it */
          }
        }
      } else {
        const scanner = await this.deps.loadScanner();
        if (this.disposed) return;
        this.scanner = scanner;
        await scanner.start(videoConstraints(side, exact), (code) => this.deps.onBarcode(code));
        if (this.disposed) await this.stopAll();
      }
    });
  }

  close(): Promise<void> {
    return this.run(() => this.stopAll());
  }

  /** The screen is (again) showing: opening is allowed. React's StrictMode unmounts and mounts once more. */
  activate(): void {
    this.disposed = false;
  }

  /** Stops everything (the screen is closing); opens still queued do nothing. */
  dispose(): Promise<void> {
    this.disposed = true;
    return this.close();
  }

  private async stopAll(): Promise<void> {
    if (this.stream) {
      this.stream.getTracks().forEach((t) => t.stop());
      this.stream = null;
      const video = this.deps.video();
      if (video) video.srcObject = null;
    }
    if (this.scanner) {
      const scanner = this.scanner;
      this.scanner = null;
      await scanner.stop().catch((err: unknown) => console.warn('stopping the barcode scanner', err));
    }
  }

  private track(): MediaStreamTrack | null {
    return this.stream?.getVideoTracks()[0] ?? null;
  }

  /** Whether the open camera has a torch (phones' back cameras mostly do). */
  torchSupported(): boolean {
    const track = this.track();
    const caps = track?.getCapabilities?.() as (MediaTrackCapabilities & { torch?: boolean }) | undefined;
    return !!caps?.torch;
  }

  async setTorch(on: boolean): Promise<boolean> {
    const track = this.track();
    if (!track || !this.torchSupported()) return false;
    await track.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] });
    return true;
  }

  /** The barcode scanner's video (to keep the frame a code was found in). */
  scannerVideo(): HTMLVideoElement | null {
    return this.scanner?.video() ?? null;
  }
}
