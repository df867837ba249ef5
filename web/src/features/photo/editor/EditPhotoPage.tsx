import { useTranslation } from 'react-i18next';
import { lazy, Suspense, useLayoutEffect, useReducer, useRef, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ArrowLeftIcon, TrashIcon } from '../../../components/icons';
import { BusyButton } from '../../../components/BusyButton';
import { PageSpinner } from '../../../components/Spinner';
import { useToast } from '../../../app/shell/notices';
import { readCapturedImage, readScanResult } from '../flow';
import { usePageTitle } from '../../../lib/usePageTitle';
import { around } from '../../../lib/i18n';
import { useGenerateItemMutation } from '../recognition/api';
import { editorCanvasSize } from './canvasSize';
import { finishEditing } from './finish';
import { editorReducer, initialEditorState, selectedDeleted, stickerAdded } from './slice';
import type { StickerStageHandle } from './StickerStage';
import { STICKERS } from './stickers';
import './editor.css';

// Konva and react-konva (about 60 KB gzipped) come with the canvas, not with the app.
const StickerStage = lazy(() => import('./StickerStage'));

function useCanvasSize(container: React.RefObject<HTMLElement | null>) {
  const [size, setSize] = useState(() => editorCanvasSize(window.innerWidth, window.innerHeight, 0));
  useLayoutEffect(() => {
    const measure = () =>
      setSize(editorCanvasSize(window.innerWidth, window.innerHeight, container.current?.clientWidth ?? 0));
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [container]);
  return size;
}

/** /edit-photo (docs/spec.md, section 2 'Sticker editor'). */
export default function EditPhotoPage() {
  const { t } = useTranslation('photo');
  usePageTitle(t('editor.title'));
  const [photo] = useState(readCapturedImage);
  const [params] = useSearchParams();
  const fromScan = params.get('source') === 'scan';
  const [scan] = useState(() => (fromScan ? readScanResult() : null));
  const navigate = useNavigate();
  const toast = useToast();
  const [generate] = useGenerateItemMutation();
  const [state, dispatch] = useReducer(editorReducer, initialEditorState);
  const [processing, setProcessing] = useState(false);
  const stageRef = useRef<StickerStageHandle>(null);
  const canvasBox = useRef<HTMLDivElement>(null);
  const size = useCanvasSize(canvasBox);
  const [announcement, setAnnouncement] = useState('');

  if (!photo) return <Navigate to="/camera" replace />;
  const original = photo;

  async function next() {
    if (processing) return;
    setProcessing(true);
    try {
      await finishEditing({
        flatten: () => {
          const stage = stageRef.current;
          if (!stage) throw new Error('the canvas is not ready');
          return stage.toJpeg();
        },
        original,
        generate: (request) => generate(request).unwrap(),
        toast,
        navigate,
        scan,
      });
    } finally {
      setProcessing(false);
    }
  }

  const scanNotice = around((code) => t('editor.scanNotice', { code }));
  const stickerName = (id: string) => t(`stickers.${id}`, { defaultValue: t('editor.sticker') });

  function addSticker(stickerId: string, url: string) {
    dispatch(stickerAdded({ stickerId, url }));
    setAnnouncement(t('editor.added', { name: stickerName(stickerId) }));
  }

  function deleteSelected() {
    dispatch(selectedDeleted());
    setAnnouncement(t('editor.removed'));
  }

  return (
    <section className="page editor-page" aria-labelledby="editor-title">
      <div className="editor-bar">
        <button type="button" className="button button--outline button--small" onClick={() => navigate(fromScan ? '/camera?mode=scan' : '/camera')}>
          <ArrowLeftIcon size={18} /> {t('common.back')}
        </button>
        <h1 id="editor-title" className="editor-bar__title">
          {t('editor.heading')}
        </h1>
        <BusyButton
          className="button button--primary button--small"
          onClick={() => void next()}
          busy={processing}
          busyLabel={t('editor.processing')}
          busyText={t('editor.processingText')}
        >
          {t('editor.next')}
        </BusyButton>
      </div>

      {scan && (
        <p className="notice editor-scan" data-testid="scan-notice">
          {scanNotice[0]}
          <strong>{scan.value}</strong>
          {scanNotice[1]}
        </p>
      )}

      <div ref={canvasBox} className="editor-canvas">
        <div
          className="editor-canvas__frame"
          style={{ width: size.width, height: size.height }}
          data-testid="editor-canvas"
          data-stickers={state.stickers.length}
          data-selected={state.selectedId ?? ''}
        >
          <div role="img" aria-label={t('editor.photo', { count: state.stickers.length })}>
            <Suspense fallback={<PageSpinner label={t('editor.loading')} />}>
              <StickerStage ref={stageRef} photo={photo} width={size.width} height={size.height} state={state} dispatch={dispatch} />
            </Suspense>
          </div>
          {state.selectedId && (
            <button type="button" className="editor-bin" onClick={deleteSelected} aria-label={t('editor.delete')}>
              <TrashIcon size={22} />
            </button>
          )}
        </div>
      </div>

      {/* What the canvas shows, for screen readers (and for tests, which cannot see into it). */}
      <ul className="visually-hidden" aria-label={t('editor.placed')} data-testid="placed-stickers">
        {state.stickers.map((s) => (
          <li
            key={s.id}
            data-x={Math.round(s.x)}
            data-y={Math.round(s.y)}
            data-width={Math.round(s.width)}
            data-height={Math.round(s.height)}
            data-selected={s.isSelected}
          >
            {t('editor.placedItem', {
              name: stickerName(s.stickerId),
              x: Math.round(s.x),
              y: Math.round(s.y),
              width: Math.round(s.width),
              height: Math.round(s.height),
            })}
            {s.isSelected ? t('editor.selected') : ''}
          </li>
        ))}
      </ul>

      <p className="editor-hint">{t('editor.hint')}</p>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>

      <div className="sticker-picker" role="group" aria-label={t('editor.stickers')}>
        {STICKERS.map((s) => (
          <button key={s.id} type="button" className="sticker-picker__item" onClick={() => addSticker(s.id, s.url)} title={stickerName(s.id)}>
            <img src={s.url} alt="" width={56} height={56} />
            <span className="visually-hidden">{t('editor.add', { name: stickerName(s.id) })}</span>
          </button>
        ))}
      </div>
    </section>
  );
}
