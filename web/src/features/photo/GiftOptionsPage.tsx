import { PhotoPlaceholder } from './PhotoPlaceholder';

/** /gift-options (placeholder). Replaced by the photo-flow issue. */
export default function GiftOptionsPage() {
  return <PhotoPlaceholder title="Gift Options" />;
}
