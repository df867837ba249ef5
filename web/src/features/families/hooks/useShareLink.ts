import { useCallback } from 'react';
import { useToast } from '../../../app/shell/notices';

/** Whether this browser can hand a link to another app (the Web Share API, mostly phones). */
export function canWebShare(nav: Navigator = navigator): boolean {
  return typeof nav.share === 'function';
}

/** Copy a link, or hand it to the phone's share sheet; either way the person hears how it went. */
export function useShareLink(): { copy: (url: string) => Promise<void>; share: (data: ShareData) => Promise<void> } {
  const toast = useToast();
  const copy = useCallback(
    async (url: string) => {
      try {
        await navigator.clipboard.writeText(url);
        toast({ title: 'Link copied' });
      } catch {
        toast({ title: 'Could not copy', description: 'Select the link and copy it by hand.', variant: 'destructive' });
      }
    },
    [toast],
  );
  const share = useCallback(
    async (data: ShareData) => {
      try {
        await navigator.share(data);
      } catch (err) {
        // Closing the share sheet is a choice, not a failure.
        if (err instanceof DOMException && err.name === 'AbortError') return;
        toast({ title: 'Could not share', description: 'Copy the link instead.', variant: 'destructive' });
      }
    },
    [toast],
  );
  return { copy, share };
}
