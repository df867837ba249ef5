import { PhotoPlaceholder } from './PhotoPlaceholder';

/** /edit-photo (placeholder). Replaced by the photo-flow issue. */
export default function EditPhotoPage() {
  return <PhotoPlaceholder title="Sticker Editor" />;
}
