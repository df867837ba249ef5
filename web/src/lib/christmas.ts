const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whole days from `now` until Christmas morning (25 December, local calendar).
 * 0 on Christmas Day itself; from 26 December it counts to next year's.
 * Calendar dates are compared in UTC so a daylight-saving change never gives 23.96 days.
 */
export function daysUntilChristmas(now: Date = new Date()): number {
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  let christmas = Date.UTC(now.getFullYear(), 11, 25);
  if (today > christmas) christmas = Date.UTC(now.getFullYear() + 1, 11, 25);
  return Math.round((christmas - today) / DAY_MS);
}
