import { SseParser } from './sse';

describe('SseParser', () => {
  it('parses events split across chunks', () => {
    const parser = new SseParser();
    expect(parser.push('event: wishlist.count\ndata: {"cou')).toEqual([]);
    expect(parser.push('nt":3}\n\n')).toEqual([{ event: 'wishlist.count', data: '{"count":3}', id: undefined }]);
  });

  it('joins multi-line data, keeps ids, skips comments and accepts CRLF', () => {
    const parser = new SseParser();
    const events = parser.push(': keep-alive\r\nid: 7\r\ndata: a\r\ndata: b\r\n\r\ndata: plain\n\n');
    expect(events).toEqual([
      { event: 'message', data: 'a\nb', id: '7' },
      { event: 'message', data: 'plain', id: '7' },
    ]);
  });

  it('ignores blocks without data', () => {
    expect(new SseParser().push('event: ping\n\n')).toEqual([]);
  });
});
