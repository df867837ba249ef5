import { latestAt, readSeen, seenKey, unreadCount, writeSeen } from './unread';
import type { SecretSantaMessage } from './types';

const m = (with_: SecretSantaMessage['with'], from: SecretSantaMessage['from'], at: string): SecretSantaMessage => ({
  id: `${with_}-${from}-${at}`,
  with: with_,
  from,
  text: 'x',
  at,
});

describe('unread Secret Santa messages', () => {
  const messages = [
    m('santa', 'them', '2026-11-20T10:00:00.000Z'),
    m('santa', 'them', '2026-11-21T10:00:00.000Z'),
    m('santa', 'me', '2026-11-22T10:00:00.000Z'),
    m('giftee', 'them', '2026-11-23T10:00:00.000Z'),
  ];

  it('counts only the other side\'s messages in that conversation after the seen time', () => {
    expect(unreadCount(messages, 'santa')).toBe(2);
    expect(unreadCount(messages, 'santa', '2026-11-20T10:00:00.000Z')).toBe(1);
    expect(unreadCount(messages, 'santa', '2026-11-21T10:00:00.000Z')).toBe(0);
    expect(unreadCount(messages, 'giftee', '2026-11-21T10:00:00.000Z')).toBe(1);
    expect(latestAt(messages, 'santa')).toBe('2026-11-22T10:00:00.000Z');
    expect(latestAt([], 'giftee')).toBeUndefined();
  });

  it('keeps the seen times per family, and ignores what is not a time', () => {
    writeSeen('f1', { santa: '2026-11-21T10:00:00.000Z' });
    expect(readSeen('f1')).toEqual({ santa: '2026-11-21T10:00:00.000Z' });
    expect(readSeen('f2')).toEqual({});
    localStorage.setItem(seenKey('f3'), '{"santa":"soon","giftee":5}');
    expect(readSeen('f3')).toEqual({});
    localStorage.setItem(seenKey('f4'), 'not json');
    expect(readSeen('f4')).toEqual({});
  });
});
