import { useTranslation } from 'react-i18next';
import type { ReactNode, RefObject } from 'react';
import { CameraIcon } from '../../../../components/icons';
import { Spinner } from '../../../../components/Spinner';
import { isLive, isUsable, isWaiting, NOT_SUPPORTED, simulationReasonKey, type CameraSession } from '../session';
import { simulationImageUrl } from '../simulation';
import { READER_ID } from '../useCameraSession';
import { FILE_READER_ID } from '../useCapture';

interface ViewfinderProps {
  session: CameraSession;
  videoRef: RefObject<HTMLVideoElement | null>;
  boxRef: RefObject<HTMLDivElement | null>;
  onEnable: () => void;
  onSimulate: () => void;
  /** The side and flash chips. */
  controls: ReactNode;
}

/** The picture: live video or barcode reader, the simulation picture, and what covers them. */
export function Viewfinder({ session, videoRef, boxRef, onEnable, onSimulate, controls }: ViewfinderProps) {
  const { mode, side, status } = session;
  const live = isLive(session);
  const { t } = useTranslation('photo');

  return (
    <div
      ref={boxRef}
      className={`viewfinder viewfinder--${mode}${side === 'front' ? ' viewfinder--front' : ''}`}
      data-testid="viewfinder"
      data-status={status}
    >
      <video
        ref={videoRef}
        className={`viewfinder__video${live && mode === 'photo' ? '' : ' viewfinder__layer--hidden'}`}
        playsInline
        muted
        autoPlay
        aria-label={t('camera.preview')}
      />
      <div
        id={READER_ID}
        className={`viewfinder__reader${live && mode === 'barcode' ? '' : ' viewfinder__layer--hidden'}`}
        aria-label={t('camera.scannerPreview')}
      />
      <div id={FILE_READER_ID} className="viewfinder__file-reader" aria-hidden="true" />

      {status === 'simulation' && (
        <img className="viewfinder__simulation" src={simulationImageUrl(mode)} alt={t('camera.simulated')} />
      )}
      {mode === 'barcode' && isUsable(session) && <div className="viewfinder__guide" aria-hidden="true" />}
      {isWaiting(session) && (
        <div className="viewfinder__veil">
          <Spinner label={status === 'switching' ? t('camera.switching') : t('camera.starting')} />
          {status === 'switching' && <p>{t('camera.switchingText')}</p>}
        </div>
      )}
      {status === 'prompt' && (
        <div className="viewfinder__prompt card">
          <CameraIcon size={40} />
          <h2 className="viewfinder__prompt-title">{t('camera.accessTitle')}</h2>
          <p>{t('camera.accessText')}</p>
          <button type="button" className="button button--primary" onClick={onEnable}>
            {t('camera.enable')}
          </button>
          <button type="button" className="button button--link" onClick={onSimulate}>
            {t('camera.withoutCamera')}
          </button>
        </div>
      )}
      {status === 'simulation' && (
        <div className="viewfinder__banner" role="note">
          <span>{t(simulationReasonKey(session.simulationReason))}</span>
          {session.simulationReason !== NOT_SUPPORTED && (
            <button type="button" className="button button--small button--light" onClick={onEnable}>
              {t('camera.enable')}
            </button>
          )}
        </div>
      )}

      {controls}
      {session.flashBurst && <div className="viewfinder__flash" aria-hidden="true" />}
    </div>
  );
}
