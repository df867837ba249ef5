import type { components } from '../../lib/api/schema';
import type { RequestBody, ResponseBody } from '../../lib/api/operations';

/** The family shapes, from api/openapi.yaml through `npm run gen:api`. */
type Schemas = components['schemas'];

export type Family = Schemas['Family'];
export type FamilyMember = Family['members'][number];
export type FamilySharedList = Family['lists'][number];
export type Invite = Schemas['Invite'];
export type OpenInvite = Schemas['OpenInvite'];
export type FamilyCreated = Schemas['FamilyCreated'];
export type SecretSantaMatch = Schemas['SecretSantaMatch'];
export type SecretSantaMessage = Schemas['SecretSantaMessage'];
/** One of the caller's two conversations: with their giftee, or with their own (unnamed) Secret Santa. */
export type Conversation = SecretSantaMessage['with'];
export type CirclePair = NonNullable<SecretSantaMatch['circle']>[number];
/** PATCH /api/families/{id}/secret-santa: only the fields present change. */
export interface ExchangePlanRequest {
  exchangeOn?: string | null;
  place?: string | null;
  budget?: string | null;
}
export interface ExchangePlan {
  drawOn: string | null;
  exchangeOn: string | null;
  place: string;
  budget: string | null;
}
/** GET /api/invites/{token}: what the accept page shows. */
export type InviteInfo = ResponseBody<'inviteInfo', 200>;
/** POST /api/families/{id}/secret-santa: the exclusions, the budget, and whether to reveal the circle after the exchange. */
export type DrawRequest = RequestBody<'drawSecretSanta'>;
export type DrawResult = ResponseBody<'drawSecretSanta', 201>;

/** Two members who must not draw each other (either way); `key` is the same whatever their order. */
export interface MemberPair {
  key: string;
  a: FamilyMember;
  b: FamilyMember;
}

/** The key of an unordered pair of uids. */
export function pairKey(uidA: string, uidB: string): string {
  return uidA < uidB ? `${uidA}|${uidB}` : `${uidB}|${uidA}`;
}

/** Every unordered pair of distinct members, in the members' order (Ann–Ben, Ann–Cleo, Ben–Cleo). */
export function memberPairs(members: readonly FamilyMember[]): MemberPair[] {
  const unique = members.filter((m, i) => members.findIndex((o) => o.uid === m.uid) === i);
  const pairs: MemberPair[] = [];
  for (let i = 0; i < unique.length; i++) {
    for (let j = i + 1; j < unique.length; j++) {
      pairs.push({ key: pairKey(unique[i].uid, unique[j].uid), a: unique[i], b: unique[j] });
    }
  }
  return pairs;
}

/** The set with `key` added or removed. */
export function toggleKey(keys: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(keys);
  if (!next.delete(key)) next.add(key);
  return next;
}

/**
 * The draw request's exclusions: the chosen pairs between people who are still members (a pair
 * chosen before someone left is dropped), each pair once, in the members' order.
 */
export function exclusionsFor(members: readonly FamilyMember[], chosen: ReadonlySet<string>): [string, string][] {
  return memberPairs(members)
    .filter((p) => chosen.has(p.key))
    .map((p) => [p.a.uid, p.b.uid]);
}

/**
 * Who can still give to whom once the exclusions are applied: a member left with nobody to give
 * to makes every draw impossible, which the page says before the server would. Empty when fine.
 */
export function membersWithoutChoice(members: readonly FamilyMember[], chosen: ReadonlySet<string>): FamilyMember[] {
  if (members.length < 2) return [];
  return members.filter((m) => members.every((o) => o.uid === m.uid || chosen.has(pairKey(m.uid, o.uid))));
}

/** A path from the API (`/join/…`, `/l/…`) as a full address to send to someone. */
export function absoluteUrl(url: string, origin = window.location.origin): string {
  return new URL(url, origin).toString();
}

/** Admins first, then by name, as the server orders them; kept so after local changes. */
export function adminsFirst(members: readonly FamilyMember[]): FamilyMember[] {
  return [...members].sort(
    (a, b) => Number(b.role === 'admin') - Number(a.role === 'admin') || a.displayName.localeCompare(b.displayName),
  );
}

/** True when the caller is the only admin and others remain: they must make someone admin before leaving. */
export function isLastAdmin(family: Family, uid: string): boolean {
  const admins = family.members.filter((m) => m.role === 'admin');
  return admins.length === 1 && admins[0].uid === uid && family.members.length > 1;
}

/** The API error's code (`draw_impossible`, `no_draw`, `last_admin`…), if the answer had one. */
export function errorCode(err: unknown): string | undefined {
  if (!err || typeof err !== 'object' || !('data' in err)) return undefined;
  const data = (err as { data: unknown }).data;
  if (!data || typeof data !== 'object' || !('error' in data)) return undefined;
  const code = (data as { error: { code?: unknown } }).error?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isNotFound(err: unknown): boolean {
  return !!err && typeof err === 'object' && 'status' in err && (err as { status: unknown }).status === 404;
}

/**
 * The exclusions a draw_not_secret answer asks to drop, as the request's pairs: the server names
 * each by its position in the request (`fields["exclusions.<i>"]`). Empty for any other answer.
 */
export function exclusionsToDrop(err: unknown, sent: readonly [string, string][]): [string, string][] {
  if (errorCode(err) !== 'draw_not_secret') return [];
  const fields = (err as { data: { error: { fields?: Record<string, string> } } }).data.error.fields ?? {};
  return Object.keys(fields)
    .map((key) => /^exclusions\.(\d+)$/.exec(key))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b)
    .filter((i) => i < sent.length)
    .map((i) => sent[i]);
}

/**
 * A draw's exclusions as pairs of members' names, leaving out anyone who is no longer a member.
 * Pairs read as the admin's picker shows them (memberPairs): in the members' order, whatever
 * order the server keeps them in (it keeps each pair in uid order).
 */
export function exclusionNames(members: readonly FamilyMember[], exclusions: readonly string[][]): [string, string][] {
  const position = new Map<string, number>();
  members.forEach((m, i) => {
    if (!position.has(m.uid)) position.set(m.uid, i);
  });
  return exclusions
    .filter((pair) => pair.length === 2 && position.has(pair[0]) && position.has(pair[1]))
    .map((pair) => [...pair].sort((x, y) => position.get(x)! - position.get(y)!))
    .sort((p, q) => position.get(p[0])! - position.get(q[0])! || position.get(p[1])! - position.get(q[1])!)
    .map(([a, b]) => [members[position.get(a)!].displayName, members[position.get(b)!].displayName]);
}
