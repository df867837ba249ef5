import { apiPath, apiRoute, type ApiQuery } from './paths';

describe('apiPath', () => {
  it('answers a path without placeholders as it is', () => {
    expect(apiPath('/api/wishlist')).toBe('/api/wishlist');
  });

  it('replaces every placeholder with its value', () => {
    expect(apiPath('/api/shared/{token}/items/{itemId}/claim', { token: 'tok-1', itemId: 'item-2' })).toBe(
      '/api/shared/tok-1/items/item-2/claim',
    );
    expect(apiPath('/api/families/{id}/invites/{token}', { id: 'f', token: 't' })).toBe('/api/families/f/invites/t');
  });

  it('encodes each value, so none adds a segment or a query', () => {
    expect(apiPath('/api/wishlist/{id}', { id: '../a b/c?d=e#f&ü' })).toBe('/api/wishlist/..%2Fa%20b%2Fc%3Fd%3De%23f%26%C3%BC');
    expect(apiPath('/api/unsubscribe/{token}', { token: '{token}' })).toBe('/api/unsubscribe/%7Btoken%7D');
  });

  it('refuses to send a placeholder unreplaced when the types were got around', () => {
    const untyped = apiPath as (path: string, params?: Record<string, string>) => string;
    expect(() => untyped('/api/shared/{token}/items/{itemId}/claim', { token: 't' })).toThrow('{itemId}');
  });
});

describe('apiRoute', () => {
  it('answers the URL and the method', () => {
    expect(apiRoute('PUT', '/api/shared/{token}/items/{itemId}/claim', { token: 'a/b', itemId: 'c' })).toEqual({
      url: '/api/shared/a%2Fb/items/c/claim',
      method: 'PUT',
    });
    expect(apiRoute('GET', '/api/lists')).toEqual({ url: '/api/lists', method: 'GET' });
  });
});

// What `tsc` (npm run typecheck, build) refuses: each call below must be a type error, else its
// expect-error directive is unused and fails the type check. Never called: only the types matter.
export function typeChecks(): void {
  // @ts-expect-error a path the spec does not have
  apiPath('/api/wishlists');
  // @ts-expect-error a placeholder left without a value
  apiPath('/api/shared/{token}/items/{itemId}/claim', { token: 't' });
  // @ts-expect-error a parameter the path does not name
  apiPath('/api/wishlist/{id}', { id: 'i', listId: 'l' });
  // @ts-expect-error a path with placeholders needs their values
  apiPath('/api/wishlist/{id}');
  // @ts-expect-error a path without placeholders takes none
  apiPath('/api/wishlist', { id: 'i' });
  // @ts-expect-error a method the spec does not have for the path (GET only)
  apiRoute('DELETE', '/api/wishlist/recent');
  // @ts-expect-error a method the spec does not have for the path (DELETE and PATCH only)
  apiRoute('GET', '/api/wishlist/{id}', { id: 'i' });
  // @ts-expect-error methods are written as they are sent
  apiRoute('get', '/api/lists');

  const listQuery: ApiQuery<'/api/wishlist', 'GET'> = { listId: 'l' };
  // @ts-expect-error a query parameter the spec does not have for the method
  const wrongQuery: ApiQuery<'/api/wishlist', 'GET'> = { list: 'l' };
  // @ts-expect-error a method without query parameters takes none
  const noQuery: ApiQuery<'/api/lists', 'GET'> = { listId: 'l' };
  void [listQuery, wrongQuery, noQuery];
}
