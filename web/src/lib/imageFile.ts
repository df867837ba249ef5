/** Reads a chosen file into a data URL. */
export function readFileAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Error reading file'));
    reader.readAsDataURL(file);
  });
}

/** Phone photos are several megabytes; beyond this the image is scaled down before it is sent. */
export const MAX_INLINE_IMAGE_BYTES = 1_500_000;
const MAX_EDGE = 1600;

/**
 * The chosen image as a data URL, scaled to at most 1600 px on its longer edge (JPEG) when the
 * file is large, so it stays under the gateway's body limit. Small files are kept as they are.
 */
export async function imageFileToDataUrl(file: File): Promise<string> {
  const original = await readFileAsDataUrl(file);
  if (file.size <= MAX_INLINE_IMAGE_BYTES || typeof document === 'undefined') return original;
  try {
    const image = await loadImage(original);
    const scale = Math.min(1, MAX_EDGE / Math.max(image.naturalWidth, image.naturalHeight));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(image.naturalWidth * scale);
    canvas.height = Math.round(image.naturalHeight * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) return original;
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
