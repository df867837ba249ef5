import { useTranslation } from 'react-i18next';
import type { ChangeEvent, RefObject } from 'react';
import { useToast } from '../../../app/shell/notices';
import { dataUrlToFile } from '../../../lib/dataUrl';
import { imageFileToDataUrl } from '../../../lib/imageFile';
import { clearScan } from '../flow';
import { NoBarcodeError, scanImageFile } from './barcode';
import { captureSimulation, captureVideoFrame } from './capture';
import { cameraActions as act, canCapture } from './session';
import { SIMULATED_BARCODE } from './simulation';
import { sleep, type CameraSessionApi } from './useCameraSession';

/** docs/spec.md, section 9: the simulated scanner answers after 1.5 s. */
export const SIMULATED_SCAN_MS = 1500;
export const FILE_READER_ID = 'barcode-file-reader';
const SCREEN_FLASH_MS = 180;

/** The capture button (a photo, or a barcode read now) and a chosen file, for /camera. */
export function useCapture(camera: CameraSessionApi, video: RefObject<HTMLVideoElement | null>, viewfinder: RefObject<HTMLDivElement | null>) {
  const toast = useToast();
  const { t } = useTranslation('photo');
  const { session, dispatch, controller, onDetected } = camera;

  function viewfinderAspect(): number | undefined {
    const box = viewfinder.current;
    return box && box.clientHeight ? box.clientWidth / box.clientHeight : undefined;
  }

  function keep(image: string) {
    clearScan();
    toast({ title: t('camera.captured'), description: t('camera.capturedText') });
    dispatch(act.captured(image));
  }

  async function capturePhoto() {
    if (session.flash && !session.torch) {
      // No torch on this camera: light the subject with the screen, as front cameras do.
      dispatch(act.flashBurst(true));
      await sleep(SCREEN_FLASH_MS);
    }
    try {
      keep(session.status === 'simulation' ? await captureSimulation('photo') : captureVideoFrame(video.current!, viewfinderAspect()));
    } catch (err) {
      console.warn('capture failed', err);
      toast({ title: t('camera.captureFailed'), description: t('camera.captureFailedText'), variant: 'destructive' });
      dispatch(act.flashBurst(false));
    }
  }

  async function scanNow() {
    dispatch(act.busy(true));
    if (session.status === 'simulation') {
      toast({ title: t('camera.scanning'), description: t('camera.holdSteady'), duration: SIMULATED_SCAN_MS });
      await sleep(SIMULATED_SCAN_MS);
      await onDetected(SIMULATED_BARCODE);
      return;
    }
    // The live scanner reads continuously; the button reads the current frame once more, now.
    try {
      const scannerVideo = controller.scannerVideo();
      if (!scannerVideo) throw new Error('no picture');
      const frame = captureVideoFrame(scannerVideo);
      const code = await scanImageFile(dataUrlToFile(frame, 'frame.jpg'), FILE_READER_ID);
      await controller.close();
      await onDetected(code, frame);
    } catch (err) {
      toast({
        title: t('camera.noBarcode'),
        description: err instanceof NoBarcodeError ? t('camera.unreadable') : t('camera.holdSteady'),
      });
      dispatch(act.busy(false));
    }
  }

  async function onCapture() {
    if (!canCapture(session)) return;
    if (session.mode === 'photo') await capturePhoto();
    else await scanNow();
  }

  async function onFileChosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      toast({ title: t('common.notImage'), variant: 'destructive' });
      return;
    }
    const barcode = session.mode === 'barcode';
    dispatch(act.busy(true));
    try {
      const image = await imageFileToDataUrl(file);
      if (!barcode) return keep(image);
      const code = await scanImageFile(file, FILE_READER_ID);
      await controller.close();
      await onDetected(code, image);
    } catch (err) {
      toast({
        title: barcode ? t('camera.noBarcode') : t('common.readFailed'),
        description: err instanceof NoBarcodeError ? t('camera.unreadable') : err instanceof Error ? err.message : t('common.readFailed'),
        variant: 'destructive',
      });
    } finally {
      dispatch(act.busy(false));
    }
  }

  return { onCapture, onFileChosen };
}
