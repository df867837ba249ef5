import { exchangeIcs } from './calendar';

describe('the exchange as a calendar file', () => {
  it('is an all-day event on the exchange day, with the place and budget', async () => {
    const ics = await exchangeIcs({
      uid: 'secret-santa-fam-1-2026-12-24@santa-wishlist',
      date: '2026-12-24',
      title: 'Secret Santa exchange – The Smiths',
      location: "Grandma's",
      description: 'Budget: €30',
    });
    const lines = ics.split('\r\n');
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines).toContain('DTSTART;VALUE=DATE:20261224');
    expect(lines).toContain('DTEND;VALUE=DATE:20261225');
    expect(lines).toContain('SUMMARY:Secret Santa exchange – The Smiths');
    expect(lines).toContain("LOCATION:Grandma's");
    expect(lines).toContain('DESCRIPTION:Budget: €30');
    expect(lines).toContain('UID:secret-santa-fam-1-2026-12-24@santa-wishlist');
  });

  it('ends on the next day across a year, and leaves out a place nobody gave', async () => {
    const ics = await exchangeIcs({ uid: 'u', date: '2026-12-31', title: 'Swap' });
    expect(ics).toContain('DTSTART;VALUE=DATE:20261231');
    expect(ics).toContain('DTEND;VALUE=DATE:20270101');
    expect(ics).not.toContain('LOCATION');
  });

  it('refuses what is not a calendar date', async () => {
    await expect(exchangeIcs({ uid: 'u', date: '24/12/2026', title: 'Swap' })).rejects.toThrow('not a calendar date');
  });
});
