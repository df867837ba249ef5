import { PhotoPlaceholder } from './PhotoPlaceholder';

/** /image-recognition (placeholder). Replaced by the photo-flow issue. */
export default function ImageRecognitionPage() {
  return <PhotoPlaceholder title="AI Image Recognition" />;
}
