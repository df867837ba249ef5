// Test data and a fetch router for the Secret Santa screen's tests (not part of the app).
import { json, mockFetch, renderWithProviders, signedIn, TEST_USER, type FetchCall } from '../../../test/utils';
import type { Family, SecretSantaMatch, SecretSantaMessage } from '../types';
import SecretSantaPage from './SecretSantaPage';

export const ME = TEST_USER.uid;

/** Holly (the caller), Ben and Cleo. The caller gives to Cleo; who gives to the caller is never said. */
export function family(role: 'admin' | 'member', extra: Partial<Family> = {}): Family {
  return {
    id: 'fam-1',
    name: 'The Smiths',
    role,
    members: [
      { uid: ME, displayName: 'Holly', role },
      { uid: 'u-ben', displayName: 'Ben', role: role === 'admin' ? 'member' : 'admin' },
      { uid: 'u-cleo', displayName: 'Cleo', role: 'member' },
    ],
    lists: [],
    drawOn: null,
    ...extra,
  };
}

export const MATCH: SecretSantaMatch = {
  drawnAt: '2026-11-20T18:00:00Z',
  budget: '€30',
  exclusions: [['u-ben', 'u-cleo']],
  everyoneCanDeduce: false,
  assignee: { uid: 'u-cleo', displayName: 'Cleo', lists: [{ name: 'Christmas', token: 'tok-cleo' }] },
  exchangeOn: null,
  place: '',
  revealAfterExchange: false,
};

export const NO_DRAW = () => json({ error: { code: 'no_draw', message: 'No names drawn yet.' } }, 404);

export function message(id: string, with_: SecretSantaMessage['with'], from: SecretSantaMessage['from'], text: string, at: string): SecretSantaMessage {
  return { id, with: with_, from, text, at };
}

interface Routes {
  families?: () => Family[];
  match?: (call: FetchCall) => Response;
  messages?: (call: FetchCall) => Response;
  other?: (call: FetchCall) => Response | undefined;
}

/** Answers the screen's calls: the families, the match (GET, PATCH, POST) and the messages. */
export function routeSanta(routes: Routes): FetchCall[] {
  return mockFetch((call) => {
    const answer = routes.other?.(call);
    if (answer) return answer;
    if (call.url.endsWith('/secret-santa/messages')) return routes.messages ? routes.messages(call) : json([]);
    if (call.url.endsWith('/secret-santa')) return routes.match ? routes.match(call) : json(MATCH);
    return json(routes.families ? routes.families() : [family('member')]);
  });
}

export function renderSanta() {
  return renderWithProviders(<SecretSantaPage />, {
    path: '/family/:id/secret-santa',
    initialEntry: '/family/fam-1/secret-santa',
    preloadedState: signedIn(),
  });
}
