import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../../app/shell/notices';

/** Whether this browser can hand a link to another app (the Web Share API, mostly phones). */
export function canWebShare(nav: Navigator = navigator): boolean {
  return typeof nav.share === 'function';
}

/** Copy a link, or hand it to the phone's share sheet; either way the person hears how it went. */
export function useShareLink(): { copy: (url: string) => Promise<void>; share: (data: ShareData) => Promise<void> } {
  const { t } = useTranslation('families');
  const toast = useToast();
  const copy = useCallback(
    async (url: string) => {
      try {
        await navigator.clipboard.writeText(url);
        toast({ title: t('share.copied') });
      } catch {
        toast({ title: t('share.copyFailed'), description: t('share.copyFailedHint'), variant: 'destructive' });
      }
    },
    [toast, t],
  );
  const share = useCallback(
    async (data: ShareData) => {
      try {
        await navigator.share(data);
      } catch (err) {
        // Closing the share sheet is a choice, not a failure.
        if (err instanceof DOMException && err.name === 'AbortError') return;
        toast({ title: t('share.shareFailed'), description: t('share.shareFailedHint'), variant: 'destructive' });
      }
    },
    [toast, t],
  );
  return { copy, share };
}
