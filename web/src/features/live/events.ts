import { currentLanguage, translate } from '../../lib/i18n';
import { api } from '../../app/api';
import { showSanta, showShellToast } from '../../app/shell/notices';
import type { AppDispatch } from '../../app/store';
import type { components } from '../../lib/api/schema';
import { sentHereRecently } from '../../lib/santaEcho';
import type { ServerEvent } from './sse';

type Schemas = components['schemas'];

/**
 * One live-stream event: api/openapi.yaml's LiveEvent, a union told apart by its name (`event`),
 * each name with its own data. The spec is the only list of names and payloads.
 */
export type LiveEvent = Schemas['LiveEvent'];
export type LiveEventName = LiveEvent['event'];

/**
 * Every name of the spec, for the run-time check of a message's name (the types cannot check
 * what comes over the network). `satisfies` refuses a name the spec does not have.
 */
export const LIVE_EVENTS = [
  'hello',
  'wishlist-count',
  'santa',
  'shared-list-changed',
  'claim-removed',
  'secret-santa',
  'secret-santa-message',
  'family-member-joined',
  'reminder-draw-soon',
  'reminder-shopping',
  'reminder-list-empty',
  'reminder-exchange-soon',
  'thank-you',
  'group-gift-complete',
] as const satisfies readonly LiveEventName[];

/** Accepts only `never`. */
type NoneLeft<T extends never> = T;
/**
 * The spec's names that LIVE_EVENTS lacks: none, or tsc fails here, so an event added to the
 * spec is never dropped unseen. (Exported only so that it is not an unused local.)
 */
export type UnlistedLiveEventNames = NoneLeft<Exclude<LiveEventName, (typeof LIVE_EVENTS)[number]>>;

type ReminderName = Schemas['ReminderEvent']['event'];

const WISHLIST_TAGS = [
  { type: 'Wishlist' as const, id: 'LIST' },
  { type: 'Wishlist' as const, id: 'RECENT' },
];

/**
 * A reminder's words: the server's English title and message, or in another language the
 * app's own texts built from the reminder's fields (as for Santa's message and API errors).
 */
export function reminderText(event: ReminderName, data: Schemas['ReminderNoticeData']): { title: string; description: string } {
  const days = data.daysLeft;
  if (currentLanguage() === 'en') return { title: data.title, description: data.message };
  const family = data.familyName ?? '';
  switch (event) {
    case 'reminder-draw-soon':
      return {
        title: days === 0 ? translate('reminders.drawToday') : translate('reminders.drawSoon', { count: days }),
        description: translate('reminders.drawSoonText', { family }),
      };
    case 'reminder-shopping':
      return {
        title: translate('reminders.christmasIn', { count: days }),
        description: translate('reminders.notPurchased', { count: data.notPurchased ?? 0 }),
      };
    case 'reminder-list-empty':
      return { title: translate('reminders.listEmpty'), description: translate('reminders.listEmptyText', { list: data.listName ?? '' }) };
    case 'reminder-exchange-soon':
      return {
        title: days === 0 ? translate('reminders.exchangeToday') : translate('reminders.exchangeSoon', { count: days }),
        description: data.place ? translate('reminders.exchangeAt', { family, place: data.place }) : family,
      };
  }
}

const NAMES: ReadonlySet<string> = new Set(LIVE_EVENTS);

function isLiveEventName(name: string): name is LiveEventName {
  return NAMES.has(name);
}

/**
 * The stream event as the spec has it, or null for a name the spec does not have or data that is
 * not a JSON object. Only that much is checked at run time: the text comes over the network, where
 * something in between could answer anything but the server; what the server sends is its data as
 * api/openapi.yaml describes it, and is read as such (no field by field typeof).
 */
function parseLiveEvent(event: ServerEvent): LiveEvent | null {
  if (!isLiveEventName(event.event)) return null;
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object') return null;
  return { event: event.event, data } as LiveEvent;
}

export interface LiveContext {
  dispatch: AppDispatch;
  /** The count the badge shows now (the cached wishlist's length). */
  currentCount: () => number;
  now?: () => number;
}

/**
 * Turns one stream event into what the page shows: fresh wishlist data for a save or delete
 * anywhere (the badge counts the cached list, so refreshing it moves the badge), and the Santa
 * overlay for a request sent from another device.
 */
export function handleLiveEvent(event: ServerEvent, ctx: LiveContext): void {
  const live = parseLiveEvent(event);
  if (!live) return;
  switch (live.event) {
    case 'hello':
      // On (re)connect: if the list changed while this device was away, refresh it.
      if (live.data.count !== ctx.currentCount()) ctx.dispatch(api.util.invalidateTags(WISHLIST_TAGS));
      return;
    case 'wishlist-count':
      // Always refresh: an edit elsewhere can change the items without changing the count.
      ctx.dispatch(api.util.invalidateTags(WISHLIST_TAGS));
      return;
    case 'santa': {
      ctx.dispatch(api.util.invalidateTags(WISHLIST_TAGS));
      if (sentHereRecently(ctx.now?.() ?? Date.now())) return;
      ctx.dispatch(showSanta());
      const { name } = live.data;
      // The server's message is English; another language shows its own text (as for API errors).
      const message = currentLanguage() === 'en' && live.data.message ? live.data.message : translate('santa.text');
      ctx.dispatch(showShellToast(name ? `${message} (${name})` : message));
      return;
    }
    case 'shared-list-changed':
      // A list this user opened by its link changed (items, claims, pledges or suggestions): read
      // open ones again, the giver's totals, and a manager's own view of a list they keep for
      // someone else, which shows both.
      ctx.dispatch(api.util.invalidateTags(['Shared', 'Claims', 'Budgets', { type: 'Wishlist', id: 'LIST' }]));
      return;
    case 'claim-removed':
      ctx.dispatch(api.util.invalidateTags(['Shared', 'Claims']));
      if (live.data.message) ctx.dispatch(showShellToast(live.data.message));
      return;
    case 'secret-santa': {
      // Names were drawn: read the caller's own match again (the notice never says whom).
      const { familyId, familyName } = live.data;
      // A new draw also starts both conversations afresh.
      if (familyId) {
        ctx.dispatch(
          api.util.invalidateTags([
            { type: 'SecretSanta', id: familyId },
            { type: 'SecretSantaMessages', id: familyId },
          ]),
        );
      }
      const message = live.data.message || 'Your Secret Santa match is ready';
      ctx.dispatch(showShellToast(familyName ? `${message} (${familyName})` : message));
      return;
    }
    case 'secret-santa-message': {
      // A message in one of the caller's two conversations: re-read them. The notice names
      // nobody (the writer may be the caller's own Secret Santa), and neither does the toast.
      const { familyId, familyName } = live.data;
      if (familyId) ctx.dispatch(api.util.invalidateTags([{ type: 'SecretSantaMessages', id: familyId }]));
      const fromSanta = live.data.with === 'santa';
      const message =
        currentLanguage() === 'en' && live.data.message
          ? live.data.message
          : translate(fromSanta ? 'secretSantaMessage.fromSanta' : 'secretSantaMessage.fromGiftee');
      ctx.dispatch(showShellToast(familyName ? `${message} (${familyName})` : message));
      return;
    }
    case 'family-member-joined':
      ctx.dispatch(api.util.invalidateTags(['Families']));
      if (live.data.message) ctx.dispatch(showShellToast(live.data.message));
      return;
    case 'thank-you': {
      // A recipient thanked the caller for a revealed gift: "Gifts I gave" shows it.
      ctx.dispatch(api.util.invalidateTags(['GiftsGiven']));
      const { recipientName, itemName, message } = live.data;
      const title = translate('giving.thankYou', { recipient: recipientName, item: itemName });
      ctx.dispatch(showShellToast(message ? `${title}: “${message}”` : title));
      return;
    }
    case 'group-gift-complete':
      // The pledges reached the target: the item now counts as taken.
      ctx.dispatch(api.util.invalidateTags(['Shared', 'Claims', 'Budgets']));
      ctx.dispatch(showShellToast(translate('giving.groupGiftComplete', { item: live.data.itemName, owner: live.data.ownerName })));
      return;
    case 'reminder-draw-soon':
    case 'reminder-shopping':
    case 'reminder-list-empty':
    case 'reminder-exchange-soon': {
      // The screen it is about reads fresh data when opened; the toast says what to do.
      const tags = {
        'reminder-draw-soon': 'Families',
        'reminder-shopping': 'Claims',
        'reminder-list-empty': 'Lists',
        'reminder-exchange-soon': 'SecretSanta',
      } as const;
      ctx.dispatch(api.util.invalidateTags([tags[live.event]]));
      const text = reminderText(live.event, live.data);
      ctx.dispatch(showShellToast(`${text.title}: ${text.description}`));
      return;
    }
    default: {
      // Every name of the spec has its case: one the spec adds fails to type-check here.
      const unhandled: never = live;
      return unhandled;
    }
  }
}
