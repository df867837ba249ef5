import { PhotoPlaceholder } from './PhotoPlaceholder';

/** /confirmation (placeholder). Replaced by the photo-flow issue. */
export default function ConfirmationPage() {
  return <PhotoPlaceholder title="Confirmation" />;
}
