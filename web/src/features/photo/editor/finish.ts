import { i18next } from '../../../lib/i18n';
import type { ToastInput } from '../../../app/shell/notices';
import { GIFT_DEFAULTS, GIFT_FALLBACK, storeEditedImage, storeGiftDetails, type ScanResult } from '../flow';
import type { GeneratedItem, GenerateRequest } from '../recognition/api';

/** docs/spec.md, section 9: the progress toast shows for 3 s, the error toast for 5 s. */
export const PROGRESS_TOAST_MS = 3000;
export const ERROR_TOAST_MS = 5000;

export interface FinishEditingDeps {
  /** The stage with its stickers, flattened to a JPEG data URL. */
  flatten: () => string;
  /** The photo as captured, used if the stage cannot be flattened. */
  original: string;
  generate: (request: GenerateRequest) => Promise<GeneratedItem>;
  toast: (toast: ToastInput) => void;
  navigate: (to: string) => void;
  scan?: ScanResult | null;
}

/** What the AI is told besides the photo: the barcode when the photo came from a scan. */
export function giftPrompt(scan?: ScanResult | null): string {
  return scan ? `A product whose package barcode (UPC/EAN) is ${scan.value}.` : '';
}

/**
 * The editor's Next (docs/spec.md, section 4 'Editor'): keep the decorated photo as editedImage,
 * ask the AI what the gift is, keep its answer (or the spec's defaults when it fails), then open
 * the gift options.
 */
export async function finishEditing(deps: FinishEditingDeps): Promise<void> {
  let image: string;
  try {
    image = deps.flatten();
  } catch (err) {
    console.warn('could not flatten the stickers onto the photo', err);
    image = deps.original;
  }
  storeEditedImage(image);
  const t = i18next.getFixedT(null, 'photo');
  deps.toast({ title: t('editor.analyzing'), description: t('editor.analyzingText'), duration: PROGRESS_TOAST_MS });
  try {
    const item = await deps.generate({ prompt: giftPrompt(deps.scan), mode: 'gift', image });
    storeGiftDetails(
      {
        name: item.name?.trim() || GIFT_DEFAULTS.name,
        description: item.description?.trim() || GIFT_DEFAULTS.description,
        price: item.price?.trim() || GIFT_DEFAULTS.price,
      },
      item.source !== 'fallback',
    );
  } catch (err) {
    console.warn('gift generation failed', err);
    storeGiftDetails(GIFT_FALLBACK, false);
    deps.toast({
      title: t('editor.failed'),
      description: t('editor.failedText'),
      variant: 'destructive',
      duration: ERROR_TOAST_MS,
    });
  }
  deps.navigate('/gift-options');
}
