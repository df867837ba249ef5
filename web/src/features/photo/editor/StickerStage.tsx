import Konva from 'konva';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { Image as KonvaImage, Layer, Rect, Stage, Transformer } from 'react-konva';
import { containFit } from './canvasSize';
import {
  dragEnded,
  dragStarted,
  selectionCleared,
  STICKER_MIN_SIZE,
  stickerSelected,
  transformed,
  type EditorState,
  type PlacedSticker,
} from './slice';

// docs/spec.md, section 9: drag distance 3 px, double-click window 400 ms.
Konva.dragDistance = 3;
Konva.dblClickWindow = 400;

type EditorAction = Parameters<typeof import('./slice').editorReducer>[1];

export interface StickerStageHandle {
  /** The photo with its stickers (no selection handles) as a JPEG data URL. */
  toJpeg(): string;
}

interface Props {
  photo: string;
  width: number;
  height: number;
  state: EditorState;
  dispatch: (action: EditorAction) => void;
  ref?: Ref<StickerStageHandle>;
}

const imageCache = new Map<string, HTMLImageElement>();

/** An <img> for a URL, once it has loaded (cached: the picker's 19 stickers are reused). */
function useHtmlImage(url: string): HTMLImageElement | null {
  const [image, setImage] = useState<HTMLImageElement | null>(() => {
    const cached = imageCache.get(url);
    return cached?.complete ? cached : null;
  });
  useEffect(() => {
    let img = imageCache.get(url);
    if (!img) {
      img = new window.Image();
      img.src = url;
      imageCache.set(url, img);
    }
    if (img.complete && img.naturalWidth) {
      setImage(img);
      return;
    }
    const loaded = img;
    const onLoad = () => setImage(loaded);
    loaded.addEventListener('load', onLoad);
    return () => loaded.removeEventListener('load', onLoad);
  }, [url]);
  return image;
}

function StickerNode({ sticker, dispatch }: { sticker: PlacedSticker; dispatch: Props['dispatch'] }) {
  const image = useHtmlImage(sticker.url);
  if (!image) return null;
  return (
    <KonvaImage
      id={`sticker-${sticker.id}`}
      name="sticker"
      image={image}
      x={sticker.x}
      y={sticker.y}
      width={sticker.width}
      height={sticker.height}
      rotation={sticker.rotation}
      draggable
      onMouseDown={() => dispatch(stickerSelected(sticker.id))}
      onTouchStart={() => dispatch(stickerSelected(sticker.id))}
      onDragStart={() => dispatch(dragStarted(sticker.id))}
      onDragEnd={(e) => dispatch(dragEnded({ id: sticker.id, x: e.target.x(), y: e.target.y() }))}
      onTransformEnd={(e) => {
        // The handle scales the node; the state keeps a plain size, so the scale goes back to 1.
        const node = e.target;
        const width = node.width() * node.scaleX();
        const height = node.height() * node.scaleY();
        node.scaleX(1);
        node.scaleY(1);
        dispatch(transformed({ id: sticker.id, x: node.x(), y: node.y(), width, height, rotation: node.rotation() }));
      }}
    />
  );
}

/**
 * The editor's canvas (react-konva): the photo, the stickers, and a transform handle on the
 * selected one. Loaded on demand, so Konva is downloaded only when the editor opens.
 */
export default function StickerStage({ photo, width, height, state, dispatch, ref }: Props) {
  const stageRef = useRef<Konva.Stage>(null);
  const transformerRef = useRef<Konva.Transformer>(null);
  const photoImage = useHtmlImage(photo);
  const fit = containFit(photoImage?.naturalWidth ?? 0, photoImage?.naturalHeight ?? 0, width, height);

  useEffect(() => {
    const transformer = transformerRef.current;
    const stage = stageRef.current;
    if (!transformer || !stage) return;
    const node = state.selectedId ? stage.findOne(`#sticker-${state.selectedId}`) : undefined;
    transformer.nodes(node ? [node] : []);
    transformer.getLayer()?.batchDraw();
  }, [state.selectedId, state.stickers]);

  useImperativeHandle(
    ref,
    () => ({
      toJpeg() {
        const stage = stageRef.current;
        if (!stage) throw new Error('the canvas is not ready');
        const transformer = transformerRef.current;
        const wasVisible = transformer?.visible() ?? false;
        transformer?.visible(false);
        try {
          // Keep about the photo's own resolution (at most 3× the screen size).
          const scale = photoImage ? photoImage.naturalWidth / Math.max(1, fit.width) : 1;
          const pixelRatio = Math.min(3, Math.max(1, scale));
          return stage.toDataURL({ mimeType: 'image/jpeg', quality: 0.88, pixelRatio });
        } finally {
          transformer?.visible(wasVisible);
        }
      },
    }),
    [photoImage, fit.width],
  );

  function onStagePointerDown(e: Konva.KonvaEventObject<MouseEvent | TouchEvent>) {
    const target = e.target;
    if (target === target.getStage() || target.name() === 'photo' || target.name() === 'backdrop') {
      dispatch(selectionCleared());
    }
  }

  return (
    <Stage
      ref={stageRef}
      width={width}
      height={height}
      className="sticker-stage"
      onMouseDown={onStagePointerDown}
      onTouchStart={onStagePointerDown}
    >
      <Layer>
        <Rect name="backdrop" x={0} y={0} width={width} height={height} fill="#1f2430" />
        {photoImage && <KonvaImage name="photo" image={photoImage} x={fit.x} y={fit.y} width={fit.width} height={fit.height} />}
        {state.stickers.map((sticker) => (
          <StickerNode key={sticker.id} sticker={sticker} dispatch={dispatch} />
        ))}
        <Transformer
          ref={transformerRef}
          keepRatio
          rotateEnabled
          enabledAnchors={['top-left', 'top-right', 'bottom-left', 'bottom-right']}
          anchorSize={18}
          anchorCornerRadius={9}
          borderStroke="#f2c14e"
          anchorStroke="#b3122b"
          borderStrokeWidth={2}
          boundBoxFunc={(oldBox, newBox) =>
            Math.abs(newBox.width) < STICKER_MIN_SIZE || Math.abs(newBox.height) < STICKER_MIN_SIZE ? oldBox : newBox
          }
        />
      </Layer>
    </Stage>
  );
}
