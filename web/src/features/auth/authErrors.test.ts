import { describeAuthError, stripProviderPrefix } from './authErrors';

function firebaseError(code: string, message: string) {
  return Object.assign(new Error(message), { code });
}

describe('describeAuthError', () => {
  it('sends an unauthorized domain to the debug page', () => {
    expect(describeAuthError(firebaseError('auth/unauthorized-domain', 'Firebase: Error (auth/unauthorized-domain).'))).toEqual({
      title: 'Domain Not Authorized',
      description: 'Redirecting to debug page with instructions...',
      redirectToDebug: true,
    });
  });

  it('explains a disabled sign-in method', () => {
    expect(describeAuthError(firebaseError('auth/operation-not-allowed', 'x'))).toEqual({
      title: 'Sign-in Method Disabled',
      description:
        "This sign-in method is not enabled. Please enable it in the provider's console under Authentication > Sign-in methods.",
      redirectToDebug: false,
    });
  });

  it('titles other errors Authentication Error with a readable message', () => {
    const notice = describeAuthError(firebaseError('auth/invalid-credential', 'Firebase: Error (auth/invalid-credential).'));
    expect(notice.title).toBe('Authentication Error');
    expect(notice.description).toBe('The email or password is incorrect.');
  });

  it('strips the provider prefix from messages it has no wording for', () => {
    const notice = describeAuthError(firebaseError('auth/something-new', 'Firebase: Something new happened (auth/something-new).'));
    expect(notice.description).toBe('Something new happened (auth/something-new).');
  });

  it('copes with errors that are not Firebase errors', () => {
    expect(describeAuthError('boom').description).toBe('boom');
    expect(describeAuthError(undefined).description).toBe('Something went wrong while signing in.');
  });
});

describe('stripProviderPrefix', () => {
  it('removes only a leading Firebase: prefix', () => {
    expect(stripProviderPrefix('Firebase: Error (auth/x).')).toBe('Error (auth/x).');
    expect(stripProviderPrefix('No prefix Firebase: here')).toBe('No prefix Firebase: here');
  });
});
