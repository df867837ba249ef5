import { useSyncExternalStore } from 'react';
import { safeGet, safeSet } from './storage';

/**
 * Light or dark: the system's choice (prefers-color-scheme) until the avatar menu's switch picks
 * one, which is remembered on this device. The theme is `data-theme` on <html>; index.css turns
 * it into colours.
 */
export type Theme = 'light' | 'dark';

export const THEME_KEY = 'santa:theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

function systemTheme(): Theme {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

function chosenTheme(): Theme | null {
  const stored = safeGet(localStorage, THEME_KEY);
  return stored === 'dark' || stored === 'light' ? stored : null;
}

export function currentTheme(): Theme {
  return chosenTheme() ?? systemTheme();
}

const listeners = new Set<() => void>();

function apply() {
  document.documentElement.dataset.theme = currentTheme();
  listeners.forEach((l) => l());
}

/** Sets the theme at start and follows the system while nothing was chosen. Called once by main.tsx. */
export function startTheme(): void {
  apply();
  if (typeof window.matchMedia === 'function') window.matchMedia(DARK_QUERY).addEventListener('change', apply);
  // A choice made in another tab of the app applies here too.
  window.addEventListener('storage', (e) => {
    if (e.key === THEME_KEY || e.key === null) apply();
  });
}

export function chooseTheme(theme: Theme): void {
  safeSet(localStorage, THEME_KEY, theme);
  apply();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The theme shown now; re-renders when it changes. */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, currentTheme, () => 'light');
}
