import { currentLanguage, translate } from '../../lib/i18n';
import { api } from '../../app/api';
import { showSanta, showShellToast } from '../../app/shell/notices';
import type { AppDispatch } from '../../app/store';
import { sentHereRecently } from '../../lib/santaEcho';
import type { ServerEvent } from './sse';

/** The notification service's events (api/openapi.yaml, /api/notifications/stream). */
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
} as const;

const WISHLIST_TAGS = [
  { type: 'Wishlist' as const, id: 'LIST' },
  { type: 'Wishlist' as const, id: 'RECENT' },
];

/**
 * A reminder's words: the server's English title and message, or in another language the
 * app's own texts built from the reminder's fields (as for Santa's message and API errors).
 */
export function reminderText(event: string, data: Record<string, unknown>): { title: string; description: string } | null {
  const days = typeof data.daysLeft === 'number' && data.daysLeft >= 0 ? data.daysLeft : null;
  if (days === null) return null;
  if (currentLanguage() === 'en' && typeof data.title === 'string' && typeof data.message === 'string') {
    return { title: data.title, description: data.message };
  }
  const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : '');
  switch (event) {
    case LIVE_EVENTS.reminderDrawSoon:
      return {
        title: days === 0 ? translate('reminders.drawToday') : translate('reminders.drawSoon', { count: days }),
        description: translate('reminders.drawSoonText', { family: text('familyName') }),
      };
    case LIVE_EVENTS.reminderShopping: {
      const n = typeof data.notPurchased === 'number' ? data.notPurchased : 0;
      return { title: translate('reminders.christmasIn', { count: days }), description: translate('reminders.notPurchased', { count: n }) };
    }
    case LIVE_EVENTS.reminderListEmpty:
      return { title: translate('reminders.listEmpty'), description: translate('reminders.listEmptyText', { list: text('listName') }) };
    case LIVE_EVENTS.reminderExchangeSoon:
      return {
        title: days === 0 ? translate('reminders.exchangeToday') : translate('reminders.exchangeSoon', { count: days }),
        description: text('place')
          ? translate('reminders.exchangeAt', { family: text('familyName'), place: text('place') })
          : text('familyName'),
      };
    default:
      return null;
  }
}

function parseData(event: ServerEvent): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(event.data);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
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
  const data = parseData(event);
  const count = typeof data.count === 'number' && Number.isFinite(data.count) ? data.count : undefined;
  switch (event.event) {
    case LIVE_EVENTS.hello:
      if (count === undefined) return;
      // On (re)connect: if the list changed while this device was away, refresh it.
      if (count !== ctx.currentCount()) ctx.dispatch(api.util.invalidateTags(WISHLIST_TAGS));
      return;
    case LIVE_EVENTS.wishlistCount:
      // Always refresh: an edit elsewhere can change the items without changing the count.
      ctx.dispatch(api.util.invalidateTags(WISHLIST_TAGS));
      return;
    case LIVE_EVENTS.santa: {
      ctx.dispatch(api.util.invalidateTags(WISHLIST_TAGS));
      if (sentHereRecently(ctx.now?.() ?? Date.now())) return;
      ctx.dispatch(showSanta());
      const name = typeof data.name === 'string' && data.name ? data.name : null;
      // The server's message is English; another language shows its own text (as for API errors).
      const message =
        currentLanguage() === 'en' && typeof data.message === 'string' && data.message ? data.message : translate('santa.text');
      ctx.dispatch(showShellToast(name ? `${message} (${name})` : message));
      return;
    }
    case LIVE_EVENTS.sharedListChanged:
      // A list this user opened by its link changed (items, claims, pledges or suggestions): read
      // open ones again, the giver's totals, and a manager's own view of a list they keep for
      // someone else, which shows both.
      ctx.dispatch(api.util.invalidateTags(['Shared', 'Claims', 'Budgets', { type: 'Wishlist', id: 'LIST' }]));
      return;
    case LIVE_EVENTS.claimRemoved: {
      ctx.dispatch(api.util.invalidateTags(['Shared', 'Claims']));
      const message = typeof data.message === 'string' && data.message ? data.message : null;
      if (message) ctx.dispatch(showShellToast(message));
      return;
    }
    case LIVE_EVENTS.secretSanta: {
      // Names were drawn: read the caller's own match again (the notice never says whom).
      const familyId = typeof data.familyId === 'string' ? data.familyId : null;
      // A new draw also starts both conversations afresh.
      if (familyId) {
        ctx.dispatch(
          api.util.invalidateTags([
            { type: 'SecretSanta', id: familyId },
            { type: 'SecretSantaMessages', id: familyId },
          ]),
        );
      }
      const message = typeof data.message === 'string' && data.message ? data.message : 'Your Secret Santa match is ready';
      const family = typeof data.familyName === 'string' && data.familyName ? data.familyName : null;
      ctx.dispatch(showShellToast(family ? `${message} (${family})` : message));
      return;
    }
    case LIVE_EVENTS.secretSantaMessage: {
      // A message in one of the caller's two conversations: re-read them. The notice names
      // nobody (the writer may be the caller's own Secret Santa), and neither does the toast.
      const familyId = typeof data.familyId === 'string' ? data.familyId : null;
      if (familyId) ctx.dispatch(api.util.invalidateTags([{ type: 'SecretSantaMessages', id: familyId }]));
      const fromSanta = data.with === 'santa';
      const message =
        currentLanguage() === 'en' && typeof data.message === 'string' && data.message
          ? data.message
          : translate(fromSanta ? 'secretSantaMessage.fromSanta' : 'secretSantaMessage.fromGiftee');
      const family = typeof data.familyName === 'string' && data.familyName ? data.familyName : null;
      ctx.dispatch(showShellToast(family ? `${message} (${family})` : message));
      return;
    }
    case LIVE_EVENTS.familyMemberJoined: {
      ctx.dispatch(api.util.invalidateTags(['Families']));
      const message = typeof data.message === 'string' && data.message ? data.message : null;
      if (message) ctx.dispatch(showShellToast(message));
      return;
    }
    case LIVE_EVENTS.thankYou: {
      // A recipient thanked the caller for a revealed gift: "Gifts I gave" shows it.
      ctx.dispatch(api.util.invalidateTags(['GiftsGiven']));
      const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : '');
      const title = translate('giving.thankYou', { recipient: text('recipientName'), item: text('itemName') });
      ctx.dispatch(showShellToast(text('message') ? `${title}: “${text('message')}”` : title));
      return;
    }
    case LIVE_EVENTS.groupGiftComplete: {
      // The pledges reached the target: the item now counts as taken.
      ctx.dispatch(api.util.invalidateTags(['Shared', 'Claims', 'Budgets']));
      const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : '');
      ctx.dispatch(showShellToast(translate('giving.groupGiftComplete', { item: text('itemName'), owner: text('ownerName') })));
      return;
    }
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
      ctx.dispatch(api.util.invalidateTags([tags[event.event]]));
      const text = reminderText(event.event, data);
      if (text) ctx.dispatch(showShellToast(`${text.title}: ${text.description}`));
      return;
    }
    default:
      return;
  }
}
