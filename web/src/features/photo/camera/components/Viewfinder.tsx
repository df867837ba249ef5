import type { ReactNode, RefObject } from 'react';
import { CameraIcon } from '../../../../components/icons';
import { Spinner } from '../../../../components/Spinner';
import { isLive, isUsable, isWaiting, NOT_SUPPORTED, type CameraSession } from '../session';
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
        aria-label="Camera preview"
      />
      <div
        id={READER_ID}
        className={`viewfinder__reader${live && mode === 'barcode' ? '' : ' viewfinder__layer--hidden'}`}
        aria-label="Barcode scanner preview"
      />
      <div id={FILE_READER_ID} className="viewfinder__file-reader" aria-hidden="true" />

      {status === 'simulation' && (
        <img className="viewfinder__simulation" src={simulationImageUrl(mode)} alt="Simulated camera picture" />
      )}
      {mode === 'barcode' && isUsable(session) && <div className="viewfinder__guide" aria-hidden="true" />}
      {isWaiting(session) && (
        <div className="viewfinder__veil">
          <Spinner label={status === 'switching' ? 'Switching camera' : 'Starting camera'} />
          {status === 'switching' && <p>Switching camera...</p>}
        </div>
      )}
      {status === 'prompt' && (
        <div className="viewfinder__prompt card">
          <CameraIcon size={40} />
          <h2 className="viewfinder__prompt-title">Camera access needed</h2>
          <p>Allow the camera to photograph or scan your gift. Nothing is recorded or sent until you choose to.</p>
          <button type="button" className="button button--primary" onClick={onEnable}>
            Enable Camera Access
          </button>
          <button type="button" className="button button--link" onClick={onSimulate}>
            Continue without a camera
          </button>
        </div>
      )}
      {status === 'simulation' && (
        <div className="viewfinder__banner" role="note">
          <span>{session.simulationReason}</span>
          {session.simulationReason !== NOT_SUPPORTED && (
            <button type="button" className="button button--small button--light" onClick={onEnable}>
              Enable Camera Access
            </button>
          )}
        </div>
      )}

      {controls}
      {session.flashBurst && <div className="viewfinder__flash" aria-hidden="true" />}
    </div>
  );
}
