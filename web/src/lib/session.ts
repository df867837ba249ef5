import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** The serializable part of a Firebase user that the app needs (docs/spec.md, section 3 'Current user'). */
export interface AuthUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  photoURL: string | null;
  providerIds: string[];
}

export interface AuthState {
  user: AuthUser | null;
  /** True at start until the first auth-state report, and during each sign-in/up, reset or logout. */
  loading: boolean;
  /** The first auth-state report has arrived (or the app knows none will). */
  initialized: boolean;
  /** Why sign-in is unavailable, when /api/config or the SDK could not be loaded. */
  unavailableReason: string | null;
}

const initialState: AuthState = {
  user: null,
  loading: true,
  initialized: false,
  unavailableReason: null,
};

const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    authStateChanged(state, action: PayloadAction<AuthUser | null>) {
      state.user = action.payload;
      state.unavailableReason = null;
      if (!state.initialized) {
        state.initialized = true;
        state.loading = false;
      }
    },
    authUnavailable(state, action: PayloadAction<string>) {
      state.unavailableReason = action.payload;
      state.user = null;
      state.initialized = true;
      state.loading = false;
    },
    authActionStarted(state) {
      state.loading = true;
    },
    authActionFinished(state) {
      state.loading = !state.initialized;
    },
  },
});

export const { authStateChanged, authUnavailable, authActionStarted, authActionFinished } = authSlice.actions;
export const authReducer = authSlice.reducer;

/** What the shell shows for a user: the derived fields of docs/spec.md, section 3 ('Current user'). */
export interface CurrentUser {
  id: string;
  email: string | null;
  displayName: string | null;
  avatar: string | null;
  username: string;
}

export function toCurrentUser(user: AuthUser): CurrentUser {
  const at = user.email ? user.email.indexOf('@') : -1;
  return {
    id: user.uid,
    email: user.email,
    displayName: user.displayName,
    avatar: user.photoURL,
    username: user.email && at > 0 ? user.email.slice(0, at) : user.uid,
  };
}

/** Display name, else username, else 'User'. */
export function menuName(user: CurrentUser | null): string {
  return user?.displayName?.trim() || user?.username || 'User';
}

/** First letter of the display name or email, else 'U'. */
export function avatarLetter(user: CurrentUser | null): string {
  const source = user?.displayName?.trim() || user?.email?.trim() || '';
  return source ? source[0].toUpperCase() : 'U';
}

interface WithAuth {
  auth: AuthState;
}

const selectAuthUser = (state: WithAuth) => state.auth.user;
let lastUser: AuthUser | null = null;
let lastCurrent: CurrentUser | null = null;

/** Memoized so components re-render only when the user really changes. */
export function selectCurrentUser(state: WithAuth): CurrentUser | null {
  const user = selectAuthUser(state);
  if (user !== lastUser) {
    lastUser = user;
    lastCurrent = user ? toCurrentUser(user) : null;
  }
  return lastCurrent;
}

export const selectAuthLoading = (state: WithAuth) => state.auth.loading;
export const selectAuthUnavailableReason = (state: WithAuth) => state.auth.unavailableReason;
