import { giftsByYear } from './giftHistory';

const claim = (displayName: string, revealedAt: string, quantity = 1) => ({ displayName, quantity, purchased: true, revealedAt });

describe('giftsByYear', () => {
  it('groups revealed claims by the year of their reveal date, newest year first', () => {
    const history = giftsByYear([
      { id: 'bike', name: 'Bike', claims: [claim('Anna', '2025-12-26T00:00:00Z'), claim('Bob', '2026-12-26T00:00:00Z', 2)] },
      { id: 'socks', name: 'Socks', claims: [claim('Cleo', '2024-12-26T00:00:00Z')] },
      { id: 'book', name: 'Book', claims: [claim('Dan', '2026-06-01T00:00:00Z')] },
    ]);
    expect(history.map((y) => y.year)).toEqual([2026, 2025, 2024]);
    expect(history[0].gifts.map((g) => `${g.name}:${g.giver}:${g.quantity}`)).toEqual(['Bike:Bob:2', 'Book:Dan:1']);
    expect(history[1].gifts).toEqual([{ itemId: 'bike', name: 'Bike', giver: 'Anna', quantity: 1, revealedAt: '2025-12-26T00:00:00Z' }]);
    expect(history[2].gifts.map((g) => g.giver)).toEqual(['Cleo']);
  });

  it('reads the year in UTC, so a date at midnight on 1 January stays in its own year', () => {
    const history = giftsByYear([{ id: 'a', name: 'Atlas', claims: [claim('Anna', '2027-01-01T00:00:00Z'), claim('Bob', '2026-12-31T23:59:59+00:00')] }]);
    expect(history.map((y) => [y.year, y.gifts.map((g) => g.giver)])).toEqual([
      [2027, ['Anna']],
      [2026, ['Bob']],
    ]);
  });

  it('orders gifts revealed on the same day by name', () => {
    const at = '2025-12-26T00:00:00Z';
    const history = giftsByYear([
      { id: 'z', name: 'Zither', claims: [claim('Anna', at)] },
      { id: 'a', name: 'Abacus', claims: [claim('Bob', at)] },
    ]);
    expect(history[0].gifts.map((g) => g.name)).toEqual(['Abacus', 'Zither']);
  });

  it('is empty when no item carries a revealed claim, and skips claims without a readable date', () => {
    expect(giftsByYear([])).toEqual([]);
    expect(giftsByYear([{ id: 'a', name: 'A' }, { id: 'b', name: 'B', claims: [] }])).toEqual([]);
    expect(giftsByYear([{ id: 'c', name: 'C', claims: [claim('Anna', 'not a date')] }])).toEqual([]);
  });

  it("leaves out, for a manager, this season's claims not given yet", () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    const history = giftsByYear(
      [{ id: 'd', name: 'Drum', claims: [claim('Aunt Ann', '2026-12-26T00:00:00Z'), claim('Bob', '2025-12-26T00:00:00Z')] }],
      now,
    );
    expect(history.flatMap((y) => y.gifts.map((g) => g.giver))).toEqual(['Bob']);
    // Without the cut-off (the recipient's own view, where the server sends only revealed claims) both count.
    expect(giftsByYear([{ id: 'd', name: 'Drum', claims: [claim('Aunt Ann', '2026-12-26T00:00:00Z')] }])).toHaveLength(1);
  });
});
