import { useTranslation } from 'react-i18next';
import { isUsable, type CameraSession } from '../session';
import { otherSide } from '../useCameraSession';

interface CameraControlsProps {
  session: CameraSession;
  onSwitchSide: () => void;
  onToggleFlash: () => void;
}

/** The chips over the picture: front/back and flash. */
export function CameraControls({ session, onSwitchSide, onToggleFlash }: CameraControlsProps) {
  const { mode, side, flash, torch } = session;
  const { t } = useTranslation('photo');
  return (
    <div className="viewfinder__controls">
      <button
        type="button"
        className="camera-chip"
        onClick={onSwitchSide}
        disabled={!isUsable(session)}
        aria-label={t(`camera.switchTo_${otherSide(side)}`)}
      >
        <SwitchIcon /> {t(`camera.${side}`)}
      </button>
      <button
        type="button"
        className="camera-chip"
        onClick={onToggleFlash}
        disabled={mode === 'barcode' || !isUsable(session)}
        aria-pressed={flash}
        title={mode === 'barcode' ? t('camera.flashOffScanning') : torch ? t('camera.torch') : t('camera.screenFlash')}
      >
        <FlashIcon on={flash && mode === 'photo'} /> {t('camera.flash')}
      </button>
    </div>
  );
}

function SwitchIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M4 8h11l-3-3M20 16H9l3 3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function FlashIcon({ on }: { on: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill={on ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M13 2 4 14h7l-1 8 9-12h-7z" strokeLinejoin="round" />
    </svg>
  );
}
