import { useTranslation } from 'react-i18next';
import { useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { storeScanResult } from '../flow';
import { usePageTitle } from '../../../lib/usePageTitle';
import { RecognitionOverlay } from '../recognition/RecognitionOverlay';
import { useScanLookupView } from '../scanLookup';
import { CameraControls } from './components/CameraControls';
import { CaptureBar } from './components/CaptureBar';
import { Viewfinder } from './components/Viewfinder';
import { cameraActions, NO_CAMERA } from './session';
import { useCameraSession } from './useCameraSession';
import { useCapture } from './useCapture';
import '../../../components/segmented.css';
import './camera.css';

export { SWITCH_DELAY_MS } from './useCameraSession';
export { SIMULATED_SCAN_MS } from './useCapture';

/**
 * /camera (docs/spec.md, section 2 'Camera'): photo or barcode mode, front/back switch, flash,
 * capture, and a simulation mode with our own picture when there is no usable camera.
 */
export default function CameraPage() {
  const { t } = useTranslation('photo');
  usePageTitle(t('camera.title'));
  const [params] = useSearchParams();
  const scanQuery = params.get('mode') === 'scan';
  const video = useRef<HTMLVideoElement>(null);
  const viewfinder = useRef<HTMLDivElement>(null);
  const camera = useCameraSession(scanQuery ? 'barcode' : 'photo', scanQuery, { video, viewfinder });
  const { onCapture, onFileChosen } = useCapture(camera, video, viewfinder);
  const { session, scanned } = camera;
  const renderScanned = useScanLookupView();
  const navigate = useNavigate();
  const { mode, status, busy } = session;

  return (
    <section className="page camera-page" aria-labelledby="camera-title">
      <div className="page__head">
        <h1 id="camera-title" className="page__title">
          {mode === 'barcode' ? t('camera.scanBarcode') : t('camera.takePhoto')}
        </h1>
        <div className="segmented camera-mode" role="group" aria-label={t('camera.mode')}>
          {(['photo', 'barcode'] as const).map((m) => (
            <button
              key={m}
              type="button"
              className={`segmented__option${mode === m ? ' segmented__option--active' : ''}`}
              aria-pressed={mode === m}
              onClick={() => void camera.changeMode(m)}
              disabled={status === 'starting' || status === 'switching' || busy}
            >
              {t(`camera.${m}`)}
            </button>
          ))}
        </div>
      </div>

      <p className="visually-hidden" aria-live="polite" data-testid="camera-mode">
        {mode === 'barcode' ? t('camera.barcodeMode') : t('camera.photoMode')}
      </p>

      <Viewfinder
        session={session}
        videoRef={video}
        boxRef={viewfinder}
        onEnable={camera.start}
        onSimulate={() => camera.enterSimulation(NO_CAMERA)}
        controls={
          <CameraControls
            session={session}
            onSwitchSide={() => void camera.switchSide()}
            onToggleFlash={() => camera.dispatch(cameraActions.flashToggled())}
          />
        }
      />
      <CaptureBar session={session} onCapture={() => void onCapture()} onFileChosen={(e) => void onFileChosen(e)} />

      {session.captured && <RecognitionOverlay image={session.captured} />}
      {scanned &&
        renderScanned?.({
          code: scanned.code,
          frame: scanned.frame,
          onDecorate: (name) => {
            storeScanResult(scanned.code, new Date(), name);
            navigate('/edit-photo?source=scan');
          },
        })}
    </section>
  );
}
