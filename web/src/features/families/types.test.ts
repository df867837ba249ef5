import type { Family, FamilyMember } from './types';
import {
  absoluteUrl,
  adminsFirst,
  errorCode,
  exclusionNames,
  exclusionsFor,
  exclusionsToDrop,
  isLastAdmin,
  memberPairs,
  membersWithoutChoice,
  pairKey,
  toggleKey,
} from './types';

const m = (uid: string, displayName: string, role: 'admin' | 'member' = 'member'): FamilyMember => ({ uid, displayName, role });
const ann = m('u-ann', 'Ann', 'admin');
const ben = m('u-ben', 'Ben');
const cleo = m('u-cleo', 'Cleo');
const dan = m('u-dan', 'Dan');

describe('exclusion pairs', () => {
  it('builds every unordered pair once, in the members\' order', () => {
    const pairs = memberPairs([ann, ben, cleo]);
    expect(pairs.map((p) => `${p.a.displayName}-${p.b.displayName}`)).toEqual(['Ann-Ben', 'Ann-Cleo', 'Ben-Cleo']);
    expect(new Set(pairs.map((p) => p.key)).size).toBe(3);
  });

  it('has n(n-1)/2 pairs, none for one member, and ignores a member listed twice', () => {
    expect(memberPairs([ann])).toEqual([]);
    expect(memberPairs([ann, ben, cleo, dan])).toHaveLength(6);
    expect(memberPairs([ann, ben, ann])).toHaveLength(1);
  });

  it('keys a pair the same whichever way round', () => {
    expect(pairKey('u-ben', 'u-ann')).toBe(pairKey('u-ann', 'u-ben'));
    expect(pairKey('a', 'b')).not.toBe(pairKey('a', 'c'));
  });

  it('toggles a pair on and off without changing the set it was given', () => {
    const none = new Set<string>();
    const one = toggleKey(none, pairKey('u-ann', 'u-ben'));
    expect(none.size).toBe(0);
    expect(one.has(pairKey('u-ben', 'u-ann'))).toBe(true);
    expect(toggleKey(one, pairKey('u-ann', 'u-ben')).size).toBe(0);
  });

  it('sends the chosen pairs between current members only, each once', () => {
    const chosen = new Set([pairKey('u-ben', 'u-ann'), pairKey('u-cleo', 'u-gone')]);
    expect(exclusionsFor([ann, ben, cleo], chosen)).toEqual([['u-ann', 'u-ben']]);
    expect(exclusionsFor([ann, ben, cleo], new Set())).toEqual([]);
  });

  it('finds who would have nobody to give to', () => {
    // Ben excluded with both others: nobody left for Ben.
    const chosen = new Set([pairKey('u-ann', 'u-ben'), pairKey('u-ben', 'u-cleo')]);
    expect(membersWithoutChoice([ann, ben, cleo], chosen).map((x) => x.displayName)).toEqual(['Ben']);
    // Two who exclude each other and are the only two members: both stuck.
    expect(membersWithoutChoice([ann, ben], new Set([pairKey('u-ann', 'u-ben')]))).toHaveLength(2);
    expect(membersWithoutChoice([ann, ben, cleo], new Set([pairKey('u-ann', 'u-ben')]))).toEqual([]);
    expect(membersWithoutChoice([ann], new Set())).toEqual([]);
  });
});

describe('family helpers', () => {
  const family = (members: FamilyMember[]): Family => ({ id: 'f', name: 'The Smiths', role: 'admin', drawOn: null, members, lists: [] });

  it('knows the last admin, who may not leave while others remain', () => {
    expect(isLastAdmin(family([ann, ben]), 'u-ann')).toBe(true);
    expect(isLastAdmin(family([ann]), 'u-ann')).toBe(false);
    expect(isLastAdmin(family([ann, { ...ben, role: 'admin' }]), 'u-ann')).toBe(false);
    expect(isLastAdmin(family([ann, ben]), 'u-ben')).toBe(false);
  });

  it('orders admins first, then by name', () => {
    expect(adminsFirst([cleo, { ...dan, role: 'admin' }, ben, ann]).map((x) => x.displayName)).toEqual(['Ann', 'Dan', 'Ben', 'Cleo']);
  });

  it('reads the error code of a gateway answer', () => {
    expect(errorCode({ status: 409, data: { error: { code: 'draw_impossible', message: 'x' } } })).toBe('draw_impossible');
    expect(errorCode({ status: 500, data: 'oops' })).toBeUndefined();
    expect(errorCode(undefined)).toBeUndefined();
  });

  it('makes a link from a path', () => {
    expect(absoluteUrl('/join/abc', 'https://santa.example')).toBe('https://santa.example/join/abc');
    expect(absoluteUrl('https://other.example/join/x', 'https://santa.example')).toBe('https://other.example/join/x');
  });
});

describe('draw_not_secret and shown exclusions', () => {
  const sent: [string, string][] = [
    ['u-ann', 'u-cleo'],
    ['u-ann', 'u-dan'],
    ['u-ben', 'u-dan'],
  ];
  const answer = (code: string, fields: Record<string, string>) => ({ status: 409, data: { error: { code, message: 'm', fields } } });

  it('picks the pairs the server names by position, and nothing for other answers', () => {
    const err = answer('draw_not_secret', { exclusions: 'drop Ann–Dan', 'exclusions.1': 'Ann–Dan', 'exclusions.9': 'stale' });
    expect(exclusionsToDrop(err, sent)).toEqual([['u-ann', 'u-dan']]);
    expect(exclusionsToDrop(answer('draw_impossible', { 'exclusions.1': 'x' }), sent)).toEqual([]);
    expect(exclusionsToDrop(new Error('offline'), sent)).toEqual([]);
  });

  it('names the pairs of a draw, skipping anyone who left', () => {
    expect(exclusionNames([ann, ben, cleo], [['u-ann', 'u-ben'], ['u-cleo', 'u-gone']])).toEqual([['Ann', 'Ben']]);
  });

  it('shows pairs in the members order, as the picker does, whatever order the server keeps', () => {
    const pairs = [
      ['u-cleo', 'u-ben'],
      ['u-cleo', 'u-ann'],
    ];
    expect(exclusionNames([ann, ben, cleo], pairs)).toEqual([
      ['Ann', 'Cleo'],
      ['Ben', 'Cleo'],
    ]);
  });
});
