import { useEffect, useState } from 'react';
import { latestAt, readSeen, unreadCount, writeSeen, type SeenTimes } from '../unread';
import type { Conversation, SecretSantaMessage } from '../types';

/**
 * The unread counts of the caller's two conversations in a family. The open conversation is
 * read: each time it shows a newer message, its seen time moves up to it (in localStorage).
 */
export function useUnread(familyId: string, messages: readonly SecretSantaMessage[], open: Conversation): Record<Conversation, number> {
  const [seen, setSeen] = useState<SeenTimes>(() => readSeen(familyId));
  const newest = latestAt(messages, open);

  useEffect(() => {
    const was = seen[open];
    if (!newest || (was && Date.parse(was) >= Date.parse(newest))) return;
    const next = { ...seen, [open]: newest };
    writeSeen(familyId, next);
    setSeen(next);
  }, [familyId, open, newest, seen]);

  return {
    giftee: open === 'giftee' ? 0 : unreadCount(messages, 'giftee', seen.giftee),
    santa: open === 'santa' ? 0 : unreadCount(messages, 'santa', seen.santa),
  };
}
