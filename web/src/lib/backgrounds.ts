import { STORAGE_KEYS, safeGet, safeSet } from './storage';

export interface BackgroundTheme {
  id: number;
  name: string;
  url: string;
}

const NAMES = [
  'Santa in Chimney',
  'Dove and Cabin',
  'Santa and Tree',
  'Christmas Presents',
  'Dove and Snowman',
  'Christmas Ornaments',
  'Reindeer and Sleigh',
  'Snowflakes',
  'Ornament and Angel',
  'Peace Doves',
  'Wreath and Cabin',
] as const;

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/** The 11 background drawings in public/backgrounds/, ids 1 to 11. */
export const BACKGROUND_THEMES: readonly BackgroundTheme[] = NAMES.map((name, i) => ({
  id: i + 1,
  name,
  url: `/backgrounds/${String(i + 1).padStart(2, '0')}-${slug(name)}.svg`,
}));

export const DEFAULT_BACKGROUND = BACKGROUND_THEMES[0];

/** Day of the month modulo 11; 0 maps to the first image. */
export function dailyBackground(now: Date = new Date()): BackgroundTheme {
  return BACKGROUND_THEMES[now.getDate() % BACKGROUND_THEMES.length];
}

function isTheme(value: unknown): value is BackgroundTheme {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.url === 'string' && typeof v.name === 'string' && typeof v.id === 'number';
}

/** The stored theme if it parses, otherwise the default one. */
export function storedBackground(): BackgroundTheme {
  const raw = safeGet(localStorage, STORAGE_KEYS.currentBackgroundTheme);
  if (!raw) return DEFAULT_BACKGROUND;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isTheme(parsed)) return parsed;
    throw new Error('not a background theme');
  } catch (err) {
    console.error('Error parsing stored background', err);
    return DEFAULT_BACKGROUND;
  }
}

export function storeBackground(theme: BackgroundTheme): void {
  safeSet(localStorage, STORAGE_KEYS.currentBackgroundTheme, JSON.stringify(theme));
}
