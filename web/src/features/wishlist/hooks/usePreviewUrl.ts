import { useEffect, useState } from 'react';
import { isValidImageUrl } from '../validation';

const PREVIEW_DELAY_MS = 600;

/** The URL to preview: valid ones only, and typed URLs only once typing pauses. */
export function usePreviewUrl(imageUrl: string): string {
  const [preview, setPreview] = useState('');
  useEffect(() => {
    const url = imageUrl.trim();
    if (!url || !isValidImageUrl(url)) {
      setPreview('');
      return;
    }
    if (url.startsWith('data:')) {
      setPreview(url);
      return;
    }
    const timer = setTimeout(() => setPreview(url), PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [imageUrl]);
  return preview;
}
