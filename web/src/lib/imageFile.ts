/** Reads a chosen file into a data URL. */
export function readFileAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Error reading file'));
    reader.readAsDataURL(file);
  });
}

/** The image types the media service stores as they are. */
export const STORED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];
/** Phone photos are several megabytes; beyond this the image is scaled down before it is sent. */
export const MAX_INLINE_IMAGE_BYTES = 1_500_000;
const MAX_EDGE = 1600;

/** Large photos, and types the server does not keep (SVG, HEIC, BMP…), are re-encoded as JPEG. */
export function needsReencoding(file: Pick<File, 'type' | 'size'>): boolean {
  return !STORED_IMAGE_TYPES.includes(file.type) || file.size > MAX_INLINE_IMAGE_BYTES;
}

/**
 * The chosen image as a data URL. Files the server would refuse or that are too large are drawn
 * onto a canvas (at most 1600 px on the longer edge, white behind transparency) and exported as
 * JPEG; if the browser cannot decode the file, the original is returned and the server decides.
 */
export async function imageFileToDataUrl(file: File): Promise<string> {
  const original = await readFileAsDataUrl(file);
  if (!needsReencoding(file) || typeof document === 'undefined') return original;
  try {
    const image = await loadImage(original);
    const width = image.naturalWidth || 800;
    const height = image.naturalHeight || 800;
    const scale = Math.min(1, MAX_EDGE / Math.max(width, height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) return original;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL('image/jpeg', 0.85);
  } catch {
    return original;
  }
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('image could not be decoded'));
    img.src = src;
  });
}
