/** The exchange as a calendar event: an all-day event on a UTC calendar day ('2026-12-24'). */
export interface ExchangeCalendarEvent {
  /** Stable per family and date, so importing the file again updates the event instead of copying it. */
  uid: string;
  date: string;
  title: string;
  location?: string;
  description?: string;
}

type DateArray = [number, number, number];

function dayAfter([y, m, d]: DateArray): DateArray {
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  return [next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate()];
}

/**
 * The .ics text of the exchange. The `ics` library is loaded only here, when someone asks for
 * the file, so it never weighs on the first screen.
 */
export async function exchangeIcs(event: ExchangeCalendarEvent): Promise<string> {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(event.date);
  if (!match) throw new Error(`not a calendar date: ${event.date}`);
  const start: DateArray = [Number(match[1]), Number(match[2]), Number(match[3])];
  const { createEvent } = await import('ics');
  const { error, value } = createEvent({
    productId: 'santa-wishlist',
    uid: event.uid,
    title: event.title,
    start,
    end: dayAfter(start),
    ...(event.location ? { location: event.location } : {}),
    ...(event.description ? { description: event.description } : {}),
  });
  if (error || !value) throw error ?? new Error('the calendar file could not be made');
  return value;
}

/** Saves text as a file through the browser's download. */
export function downloadText(filename: string, text: string, type = 'text/calendar;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
