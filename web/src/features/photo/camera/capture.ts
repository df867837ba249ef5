import { SIMULATION_HEIGHT, SIMULATION_WIDTH, simulationImageUrl } from './simulation';

/** Captured photos are JPEG at quality 0.92 (docs/spec.md, section 9), at most this many pixels on the long edge. */
export const CAPTURE_QUALITY = 0.92;
export const CAPTURE_MAX_EDGE = 1280;

export interface CropBox {
  sx: number;
  sy: number;
  sw: number;
  sh: number;
}

/**
 * The part of a `sourceW`×`sourceH` frame that a box of aspect `boxAspect` (width / height)
 * shows with object-fit: cover: the photo is what the person framed in the viewfinder.
 */
export function coverCrop(sourceW: number, sourceH: number, boxAspect: number): CropBox {
  const sourceAspect = sourceW / sourceH;
  if (!Number.isFinite(boxAspect) || boxAspect <= 0 || Math.abs(sourceAspect - boxAspect) < 0.01) {
    return { sx: 0, sy: 0, sw: sourceW, sh: sourceH };
  }
  if (sourceAspect > boxAspect) {
    const sw = Math.round(sourceH * boxAspect);
    return { sx: Math.round((sourceW - sw) / 2), sy: 0, sw, sh: sourceH };
  }
  const sh = Math.round(sourceW / boxAspect);
  return { sx: 0, sy: Math.round((sourceH - sh) / 2), sw: sourceW, sh };
}

/** Draws `source` (cropped) onto a canvas no larger than CAPTURE_MAX_EDGE and returns a JPEG data URL. */
export function drawToJpeg(source: CanvasImageSource, crop: CropBox): string {
  const scale = Math.min(1, CAPTURE_MAX_EDGE / Math.max(crop.sw, crop.sh));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(crop.sw * scale));
  canvas.height = Math.max(1, Math.round(crop.sh * scale));
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(source, crop.sx, crop.sy, crop.sw, crop.sh, 0, 0, canvas.width, canvas.height);
  const url = canvas.toDataURL('image/jpeg', CAPTURE_QUALITY);
  if (!url.startsWith('data:image/jpeg')) throw new Error('the browser could not encode a JPEG');
  return url;
}

/** The current frame of a playing video, as the viewfinder box shows it. */
export function captureVideoFrame(video: HTMLVideoElement, boxAspect?: number): string {
  const { videoWidth, videoHeight } = video;
  if (!videoWidth || !videoHeight) throw new Error('the camera has no picture yet');
  return drawToJpeg(video, boxAspect ? coverCrop(videoWidth, videoHeight, boxAspect) : coverCrop(videoWidth, videoHeight, NaN));
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('image could not be decoded'));
    img.src = src;
  });
}

/** The simulation picture as a 640×480 JPEG (docs/spec.md, section 9 'fallback canvas 640x480'). */
export async function captureSimulation(mode: 'photo' | 'barcode'): Promise<string> {
  const img = await loadImage(simulationImageUrl(mode));
  return drawToJpeg(img, { sx: 0, sy: 0, sw: SIMULATION_WIDTH, sh: SIMULATION_HEIGHT });
}
