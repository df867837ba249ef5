import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('photo');
  return (
    <div className="camera-actions">
      <label className={`camera-side-button${busy ? ' camera-side-button--disabled' : ''}`}>
        <input type="file" accept="image/*" className="visually-hidden" onChange={onFileChosen} disabled={busy} />
        <ImageIcon size={22} />
        <span>{barcode ? t('camera.scanPhoto') : t('camera.choosePhoto')}</span>
      </label>
      <button
        type="button"
        className={`capture-button capture-button--${mode}`}
        onClick={onCapture}
        disabled={!canCapture(session)}
        aria-label={barcode ? t('camera.scanButton') : t('camera.photoButton')}
      >
        {barcode ? <BarcodeIcon size={30} /> : <span className="capture-button__dot" />}
      </button>
      <p className="camera-hint">
        {barcode ? t('camera.scanHint') : t('camera.photoHint')}
      </p>
    </div>
  );
}
