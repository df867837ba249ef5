import {
  authActionFinished,
  authActionStarted,
  authReducer,
  authStateChanged,
  authUnavailable,
  avatarLetter,
  menuName,
  selectCurrentUser,
  toCurrentUser,
  type AuthUser,
} from './session';

const user: AuthUser = {
  uid: 'u1',
  email: 'rudolph@northpole.example',
  displayName: 'Rudolph',
  photoURL: 'https://example.com/r.png',
  providerIds: ['google.com'],
};

describe('auth slice', () => {
  it('is loading until the first auth-state report', () => {
    let state = authReducer(undefined, { type: 'init' });
    expect(state).toMatchObject({ loading: true, initialized: false, user: null });
    state = authReducer(state, authStateChanged(null));
    expect(state).toMatchObject({ loading: false, initialized: true, user: null });
  });

  it('is loading during an action and not after it', () => {
    let state = authReducer(undefined, authStateChanged(null));
    state = authReducer(state, authActionStarted());
    expect(state.loading).toBe(true);
    state = authReducer(state, authStateChanged(user));
    expect(state.loading).toBe(true);
    state = authReducer(state, authActionFinished());
    expect(state).toMatchObject({ loading: false, user });
  });

  it('finishes loading when sign-in is unavailable, and recovers when it comes back', () => {
    let state = authReducer(undefined, authUnavailable('GET /api/config answered 502'));
    expect(state).toMatchObject({ loading: false, initialized: true, unavailableReason: 'GET /api/config answered 502' });
    state = authReducer(state, authStateChanged(null));
    expect(state.unavailableReason).toBeNull();
  });
});

describe('derived user', () => {
  it('derives id, avatar and username from the Firebase user', () => {
    expect(toCurrentUser(user)).toEqual({
      id: 'u1',
      email: 'rudolph@northpole.example',
      displayName: 'Rudolph',
      avatar: 'https://example.com/r.png',
      username: 'rudolph',
    });
  });

  it('uses the uid as username without an email', () => {
    expect(toCurrentUser({ ...user, email: null }).username).toBe('u1');
  });

  it('names the menu by display name, then username, then User', () => {
    expect(menuName(toCurrentUser(user))).toBe('Rudolph');
    expect(menuName(toCurrentUser({ ...user, displayName: null }))).toBe('rudolph');
    expect(menuName(toCurrentUser({ ...user, displayName: '  ' }))).toBe('rudolph');
    expect(menuName(null)).toBe('User');
  });

  it('draws the avatar letter from display name, then email, else U', () => {
    expect(avatarLetter(toCurrentUser(user))).toBe('R');
    expect(avatarLetter(toCurrentUser({ ...user, displayName: null, email: 'elf@x.example' }))).toBe('E');
    expect(avatarLetter(toCurrentUser({ ...user, displayName: null, email: null }))).toBe('U');
    expect(avatarLetter(null)).toBe('U');
  });

  it('memoizes the derived user while the stored user is unchanged', () => {
    const state = { auth: authReducer(undefined, authStateChanged(user)) };
    expect(selectCurrentUser(state)).toBe(selectCurrentUser(state));
  });
});
