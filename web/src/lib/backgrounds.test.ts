import { BACKGROUND_THEMES, dailyBackground, storedBackground } from './backgrounds';

describe('backgrounds', () => {
  it('has the 11 named themes with ids 1 to 11', () => {
    expect(BACKGROUND_THEMES.map((t) => t.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // The names of docs/spec.md, section 3 ('Background image'), in order (one string: the list in backgrounds.ts is not copied line by line).
    expect(BACKGROUND_THEMES.map((t) => t.name).join(', ')).toBe(
      'Santa in Chimney, Dove and Cabin, Santa and Tree, Christmas Presents, Dove and Snowman, Christmas Ornaments, ' +
        'Reindeer and Sleigh, Snowflakes, Ornament and Angel, Peace Doves, Wreath and Cabin',
    );
  });

  it('picks the day of the month modulo 11, 0 meaning the first image', () => {
    expect(dailyBackground(new Date(2026, 11, 11)).id).toBe(1);
    expect(dailyBackground(new Date(2026, 11, 22)).id).toBe(1);
    expect(dailyBackground(new Date(2026, 11, 1)).id).toBe(2);
    expect(dailyBackground(new Date(2026, 11, 10)).id).toBe(11);
    expect(dailyBackground(new Date(2026, 11, 25)).id).toBe(4);
  });

  it('falls back to the default when the stored theme does not parse', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    localStorage.setItem('currentBackgroundTheme', '{not json');
    expect(storedBackground().id).toBe(1);
    expect(error).toHaveBeenCalledWith('Error parsing stored background', expect.anything());
  });
});
