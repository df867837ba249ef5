import type { ChangeEvent } from 'react';
import { BarcodeIcon, ImageIcon } from '../../../../components/icons';
import { canCapture, type CameraSession } from '../session';

interface CaptureBarProps {
  session: CameraSession;
  onCapture: () => void;
  onFileChosen: (event: ChangeEvent<HTMLInputElement>) => void;
}

/** Below the picture: choose a photo, the capture button and the hint. */
export function CaptureBar({ session, onCapture, onFileChosen }: CaptureBarProps) {
  const { mode, busy } = session;
  const barcode = mode === 'barcode';
  return (
    <div className="camera-actions">
      <label className={`camera-side-button${busy ? ' camera-side-button--disabled' : ''}`}>
        <input type="file" accept="image/*" className="visually-hidden" onChange={onFileChosen} disabled={busy} />
        <ImageIcon size={22} />
        <span>{barcode ? 'Scan a photo' : 'Choose photo'}</span>
      </label>
      <button
        type="button"
        className={`capture-button capture-button--${mode}`}
        onClick={onCapture}
        disabled={!canCapture(session)}
        aria-label={barcode ? 'Scan barcode' : 'Take photo'}
      >
        {barcode ? <BarcodeIcon size={30} /> : <span className="capture-button__dot" />}
      </button>
      <p className="camera-hint">
        {barcode ? 'Hold the barcode inside the frame: it is read automatically.' : 'Frame your gift and tap the button.'}
      </p>
    </div>
  );
}
