import { rememberRedirectAfterLogin, takeRedirectAfterLogin } from './redirectAfterLogin';

describe('redirectAfterLogin', () => {
  it('returns the stored path once, then /', () => {
    rememberRedirectAfterLogin('/text-prompt?x=1');
    expect(sessionStorage.getItem('redirectAfterLogin')).toBe('/text-prompt?x=1');
    expect(takeRedirectAfterLogin()).toBe('/text-prompt?x=1');
    expect(takeRedirectAfterLogin()).toBe('/');
  });

  it.each(['https://evil.example/', '//evil.example', '/\\evil.example', 'wishlist'])('refuses %s', (target) => {
    sessionStorage.setItem('redirectAfterLogin', target);
    expect(takeRedirectAfterLogin()).toBe('/');
  });
});
