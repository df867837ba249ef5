import { PhotoPlaceholder } from './PhotoPlaceholder';

/** /share-options (placeholder). Replaced by the photo-flow issue. */
export default function ShareOptionsPage() {
  return <PhotoPlaceholder title="Share Options" />;
}
