import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AvatarMenu } from '../components/AvatarMenu';
import { chooseTheme, currentTheme, startTheme, THEME_KEY } from './theme';

/** jsdom has no matchMedia: this one answers prefers-color-scheme like a browser set to `dark`. */
function systemPrefers(dark: boolean) {
  const listeners: (() => void)[] = [];
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(prefers-color-scheme: dark)' && dark,
    addEventListener: (_: string, l: () => void) => listeners.push(l),
  }));
  return listeners;
}

const user = { id: 'u1', email: 'holly@example.com', displayName: 'Holly', avatar: null, username: 'holly' };

describe('theme', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    delete document.documentElement.dataset.theme;
  });

  it('follows prefers-color-scheme while nothing was chosen', () => {
    systemPrefers(true);
    startTheme();
    expect(document.documentElement.dataset.theme).toBe('dark');
    systemPrefers(false);
    expect(currentTheme()).toBe('light');
  });

  it('remembers a choice over the system one', () => {
    systemPrefers(true);
    chooseTheme('light');
    expect(localStorage.getItem(THEME_KEY)).toBe('light');
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  it('the avatar menu switches dark mode on and off', async () => {
    systemPrefers(false);
    startTheme();
    const u = userEvent.setup();
    render(
      <MemoryRouter>
        <AvatarMenu user={user} onLogout={() => {}} />
      </MemoryRouter>,
    );
    await u.click(screen.getByRole('button', { name: 'Account menu for Holly' }));
    const item = screen.getByRole('menuitemcheckbox', { name: 'Dark mode' });
    expect(item).toHaveAttribute('aria-checked', 'false');
    await u.click(item);
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem(THEME_KEY)).toBe('dark');
    expect(screen.getByRole('menuitemcheckbox', { name: 'Dark mode' })).toHaveAttribute('aria-checked', 'true');
  });

  it('follows a theme chosen in another tab', () => {
    systemPrefers(false);
    startTheme();
    expect(document.documentElement.dataset.theme).toBe('light');
    localStorage.setItem(THEME_KEY, 'dark');
    window.dispatchEvent(new StorageEvent('storage', { key: THEME_KEY, newValue: 'dark' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    localStorage.removeItem(THEME_KEY);
    window.dispatchEvent(new StorageEvent('storage', { key: THEME_KEY, newValue: null }));
    expect(document.documentElement.dataset.theme).toBe('light');
  });
});
