import { useSearchParams } from 'react-router';
import { PhotoPlaceholder } from './PhotoPlaceholder';

/** /camera (placeholder; mode=scan selects barcode mode). Replaced by the photo-flow issue. */
export default function CameraPage() {
  const [params] = useSearchParams();
  const scan = params.get('mode') === 'scan';
  return (
    <PhotoPlaceholder title="Camera">
      <p data-testid="camera-mode">{scan ? 'Barcode mode' : 'Photo mode'}</p>
    </PhotoPlaceholder>
  );
}
