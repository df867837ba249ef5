/**
 * Barcode reading with html5-qrcode (ZXing, or the browser's BarcodeDetector where there is
 * one). The library is about 100 KB gzipped, so it is imported here only, when the camera
 * screen needs it, never with the first screen.
 */

export interface BarcodeScanner {
  /** Opens the camera and calls `onCode` for each code it reads, until stop(). */
  start(constraints: MediaTrackConstraints, onCode: (code: string) => void): Promise<void>;
  stop(): Promise<void>;
  /** The video element the library renders the camera into. */
  video(): HTMLVideoElement | null;
}

type Library = typeof import('html5-qrcode');
let library: Promise<Library> | undefined;

export function loadBarcodeLibrary(): Promise<Library> {
  library ??= import('html5-qrcode').catch((err: unknown) => {
    library = undefined; // a failed chunk download may succeed next time
    throw err;
  });
  return library;
}

/** The product codes of 'Scan UPC code of item' (docs/spec.md, section 2, 'Home'): UPC-A/E, EAN-13/8 and Code 128. */
function formats(lib: Library) {
  const F = lib.Html5QrcodeSupportedFormats;
  return [F.UPC_A, F.UPC_E, F.EAN_13, F.EAN_8, F.CODE_128];
}

function newReader(lib: Library, elementId: string) {
  return new lib.Html5Qrcode(elementId, {
    verbose: false,
    formatsToSupport: formats(lib),
    useBarCodeDetectorIfSupported: true,
  });
}

/** Scans the live camera into the element with id `elementId`. */
export async function createLiveScanner(elementId: string): Promise<BarcodeScanner> {
  const lib = await loadBarcodeLibrary();
  const reader = newReader(lib, elementId);
  let running = false;
  return {
    async start(constraints, onCode) {
      const facing = (constraints.facingMode as { ideal?: string; exact?: string } | undefined) ?? {};
      await reader.start(
        { facingMode: facing.exact ?? facing.ideal ?? 'environment' },
        // Whole frame (no qrbox): a code anywhere in the picture is read. 1D codes are read in
        // both directions anyway, so the mirrored second pass is skipped (half the CPU).
        { fps: 8, disableFlip: true, videoConstraints: constraints },
        (text) => onCode(text),
        undefined,
      );
      running = true;
    },
    async stop() {
      if (!running) return;
      running = false;
      await reader.stop();
      reader.clear();
    },
    video() {
      return document.querySelector<HTMLVideoElement>(`#${CSS.escape(elementId)} video`);
    },
  };
}

/** The picture holds no readable code (the screen says so in the reader's language). */
export class NoBarcodeError extends Error {
  constructor() {
    super('Could not read a barcode in that photo. Try a sharper, closer picture.');
    this.name = 'NoBarcodeError';
  }
}

/**
 * Reads a code from a photo (docs/spec.md, section 2 'Camera': the fallback when the live camera
 * cannot). Rejects with a NoBarcodeError when the picture has none.
 */
export async function scanImageFile(file: File, elementId: string): Promise<string> {
  const lib = await loadBarcodeLibrary();
  const reader = newReader(lib, elementId);
  try {
    return await reader.scanFile(file, false);
  } catch {
    throw new NoBarcodeError();
  } finally {
    try {
      reader.clear();
    } catch {
      /* nothing rendered */
    }
  }
}
