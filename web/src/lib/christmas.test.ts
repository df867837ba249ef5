import { daysUntilChristmas } from './christmas';

describe('daysUntilChristmas', () => {
  it.each([
    [new Date(2026, 11, 24, 23, 59), 1],
    [new Date(2026, 11, 24, 0, 1), 1],
    [new Date(2026, 11, 1, 12), 24],
    [new Date(2026, 0, 1, 8), 358],
    [new Date(2026, 11, 25, 9), 0],
    [new Date(2026, 11, 26, 9), 364],
    [new Date(2027, 11, 26, 9), 365], // the next Christmas is in leap year 2028
    [new Date(2026, 2, 29, 12), 271], // across a daylight-saving change
  ])('%s → %i days', (now, days) => {
    expect(daysUntilChristmas(now)).toBe(days);
  });
});
