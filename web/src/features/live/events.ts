import { currentLanguage, translate } from '../../lib/i18n';
import { api } from '../../app/api';
import { showSanta, showShellToast } from '../../app/shell/notices';
import type { AppDispatch } from '../../app/store';
import type { components } from '../../lib/api/schema';
import { sentHereRecently } from '../../lib/santaEcho';
import type { ServerEvent } from './sse';

type Schemas = components['schemas'];

/** A live-stream event's name: api/openapi.yaml's StreamEvent (hello, or a notice's NoticeEvent). */
export type LiveEventName = Schemas['StreamEvent'];

/**
 * The stream's event names, each checked against the spec's enum: a name the spec does not have
 * fails to type-check, and one the spec adds fails handleLiveEvent's until it is handled there.
 */
export const LIVE_EVENTS = {
  hello: 'hello',
  wishlistCount: 'wishlist-count',
  santa: 'santa',
  sharedListChanged: 'shared-list-changed',
  claimRemoved: 'claim-removed',
  secretSanta: 'secret-santa',
  secretSantaMessage: 'secret-santa-message',
  familyMemberJoined: 'family-member-joined',
  reminderDrawSoon: 'reminder-draw-soon',
  reminderShopping: 'reminder-shopping',
  reminderListEmpty: 'reminder-list-empty',
  reminderExchangeSoon: 'reminder-exchange-soon',
  thankYou: 'thank-you',
  groupGiftComplete: 'group-gift-complete',
} as const satisfies Record<string, LiveEventName>;

/** A map with an entry for every name of the spec and for no other. */
type EveryName<Map extends Record<LiveEventName, object> & Record<Exclude<keyof Map, LiveEventName>, never>> = Map;

/** Each event's data, as the spec has it. */
type LivePayloads = EveryName<{
  hello: Schemas['HelloData'];
  'wishlist-count': Schemas['WishlistCountData'];
  santa: Schemas['SantaData'];
  'shared-list-changed': Schemas['SharedListChangedData'];
  'claim-removed': Schemas['ClaimRemovedData'];
  'secret-santa': Schemas['SecretSantaNoticeData'];
  'secret-santa-message': Schemas['SecretSantaMessageNoticeData'];
  'family-member-joined': Schemas['FamilyMemberJoinedData'];
  'reminder-draw-soon': Schemas['ReminderNoticeData'];
  'reminder-shopping': Schemas['ReminderNoticeData'];
  'reminder-list-empty': Schemas['ReminderNoticeData'];
  'reminder-exchange-soon': Schemas['ReminderNoticeData'];
  'thank-you': Schemas['ThankYouNoticeData'];
  'group-gift-complete': Schemas['GroupGiftCompleteNoticeData'];
}>;

/** One stream event with its data, told apart by its name. */
export type LiveEvent = { [Name in LiveEventName]: { name: Name; data: LivePayloads[Name] } }[LiveEventName];

type ReminderEvent = Extract<LiveEventName, `reminder-${string}`>;

const WISHLIST_TAGS = [
  { type: 'Wishlist' as const, id: 'LIST' },
  { type: 'Wishlist' as const, id: 'RECENT' },
];

/**
 * A reminder's words: the server's English title and message, or in another language the
 * app's own texts built from the reminder's fields (as for Santa's message and API errors).
 */
export function reminderText(event: ReminderEvent, data: Schemas['ReminderNoticeData']): { title: string; description: string } {
  const days = data.daysLeft;
  if (currentLanguage() === 'en') return { title: data.title, description: data.message };
  const family = data.familyName ?? '';
  switch (event) {
    case LIVE_EVENTS.reminderDrawSoon:
      return {
        title: days === 0 ? translate('reminders.drawToday') : translate('reminders.drawSoon', { count: days }),
        description: translate('reminders.drawSoonText', { family }),
      };
    case LIVE_EVENTS.reminderShopping:
      return {
        title: translate('reminders.christmasIn', { count: days }),
        description: translate('reminders.notPurchased', { count: data.notPurchased ?? 0 }),
      };
    case LIVE_EVENTS.reminderListEmpty:
      return { title: translate('reminders.listEmpty'), description: translate('reminders.listEmptyText', { list: data.listName ?? '' }) };
    case LIVE_EVENTS.reminderExchangeSoon:
      return {
        title: days === 0 ? translate('reminders.exchangeToday') : translate('reminders.exchangeSoon', { count: days }),
        description: data.place ? translate('reminders.exchangeAt', { family, place: data.place }) : family,
      };
  }
}

const NAMES: ReadonlySet<string> = new Set(Object.values(LIVE_EVENTS));

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
  return { name: event.event, data } as LiveEvent;
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
  switch (live.name) {
    case LIVE_EVENTS.hello:
      // On (re)connect: if the list changed while this device was away, refresh it.
      if (live.data.count !== ctx.currentCount()) ctx.dispatch(api.util.invalidateTags(WISHLIST_TAGS));
      return;
    case LIVE_EVENTS.wishlistCount:
      // Always refresh: an edit elsewhere can change the items without changing the count.
      ctx.dispatch(api.util.invalidateTags(WISHLIST_TAGS));
      return;
    case LIVE_EVENTS.santa: {
      ctx.dispatch(api.util.invalidateTags(WISHLIST_TAGS));
      if (sentHereRecently(ctx.now?.() ?? Date.now())) return;
      ctx.dispatch(showSanta());
      const { name } = live.data;
      // The server's message is English; another language shows its own text (as for API errors).
      const message = currentLanguage() === 'en' && live.data.message ? live.data.message : translate('santa.text');
      ctx.dispatch(showShellToast(name ? `${message} (${name})` : message));
      return;
    }
    case LIVE_EVENTS.sharedListChanged:
      // A list this user opened by its link changed (items, claims, pledges or suggestions): read
      // open ones again, the giver's totals, and a manager's own view of a list they keep for
      // someone else, which shows both.
      ctx.dispatch(api.util.invalidateTags(['Shared', 'Claims', 'Budgets', { type: 'Wishlist', id: 'LIST' }]));
      return;
    case LIVE_EVENTS.claimRemoved:
      ctx.dispatch(api.util.invalidateTags(['Shared', 'Claims']));
      if (live.data.message) ctx.dispatch(showShellToast(live.data.message));
      return;
    case LIVE_EVENTS.secretSanta: {
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
    case LIVE_EVENTS.secretSantaMessage: {
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
    case LIVE_EVENTS.familyMemberJoined:
      ctx.dispatch(api.util.invalidateTags(['Families']));
      if (live.data.message) ctx.dispatch(showShellToast(live.data.message));
      return;
    case LIVE_EVENTS.thankYou: {
      // A recipient thanked the caller for a revealed gift: "Gifts I gave" shows it.
      ctx.dispatch(api.util.invalidateTags(['GiftsGiven']));
      const { recipientName, itemName, message } = live.data;
      const title = translate('giving.thankYou', { recipient: recipientName, item: itemName });
      ctx.dispatch(showShellToast(message ? `${title}: “${message}”` : title));
      return;
    }
    case LIVE_EVENTS.groupGiftComplete:
      // The pledges reached the target: the item now counts as taken.
      ctx.dispatch(api.util.invalidateTags(['Shared', 'Claims', 'Budgets']));
      ctx.dispatch(showShellToast(translate('giving.groupGiftComplete', { item: live.data.itemName, owner: live.data.ownerName })));
      return;
    case LIVE_EVENTS.reminderDrawSoon:
    case LIVE_EVENTS.reminderShopping:
    case LIVE_EVENTS.reminderListEmpty:
    case LIVE_EVENTS.reminderExchangeSoon: {
      // The screen it is about reads fresh data when opened; the toast says what to do.
      const tags = {
        [LIVE_EVENTS.reminderDrawSoon]: 'Families',
        [LIVE_EVENTS.reminderShopping]: 'Claims',
        [LIVE_EVENTS.reminderListEmpty]: 'Lists',
        [LIVE_EVENTS.reminderExchangeSoon]: 'SecretSanta',
      } as const;
      ctx.dispatch(api.util.invalidateTags([tags[live.name]]));
      const text = reminderText(live.name, live.data);
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
