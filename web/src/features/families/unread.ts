import { safeGet, safeSet } from '../../lib/storage';
import type { Conversation, SecretSantaMessage } from './types';

/** When the caller last read each of their two conversations in a family, as ISO times. */
export type SeenTimes = Partial<Record<Conversation, string>>;

/** Kept per family on this device: the server keeps no read receipts, so nothing tells the other side. */
export const seenKey = (familyId: string) => `santa:secretSantaSeen:${familyId}`;

export function readSeen(familyId: string): SeenTimes {
  try {
    const parsed: unknown = JSON.parse(safeGet(localStorage, seenKey(familyId)) ?? '{}');
    if (!parsed || typeof parsed !== 'object') return {};
    const seen: SeenTimes = {};
    for (const with_ of ['giftee', 'santa'] as const) {
      const at = (parsed as Record<string, unknown>)[with_];
      if (typeof at === 'string' && !Number.isNaN(Date.parse(at))) seen[with_] = at;
    }
    return seen;
  } catch {
    return {};
  }
}

export function writeSeen(familyId: string, seen: SeenTimes): void {
  safeSet(localStorage, seenKey(familyId), JSON.stringify(seen));
}

/** Messages the other side wrote in one conversation after the caller last read it. */
export function unreadCount(messages: readonly SecretSantaMessage[], conversation: Conversation, seenAt?: string): number {
  const since = seenAt ? Date.parse(seenAt) : -Infinity;
  return messages.filter((m) => m.with === conversation && m.from === 'them' && Date.parse(m.at) > since).length;
}

/** The time of the newest message in one conversation (what reading it marks as seen), if any. */
export function latestAt(messages: readonly SecretSantaMessage[], conversation: Conversation): string | undefined {
  let latest: string | undefined;
  for (const m of messages) {
    if (m.with === conversation && (!latest || Date.parse(m.at) > Date.parse(latest))) latest = m.at;
  }
  return latest;
}
