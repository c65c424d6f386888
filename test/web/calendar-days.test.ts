// The calendar's day helpers in the one date module (src/web/client/ui/dates.ts): no DOM, imported as it is.
import { afterEach, describe, expect, it } from 'vitest';
import { addDays, dayOf, firstDayOfWeek, formatDay, setDateSettings, withDay } from '../../src/web/client/ui/dates.js';

afterEach(() => setDateSettings({}));

describe('calendar days', () => {
  it("puts an instant on the day it falls on in the person's zone", () => {
    setDateSettings({ locale: 'en-US', timeZone: 'Pacific/Auckland' });
    expect(dayOf('2027-03-10T20:00:00.000Z')).toBe('2027-03-11');
    setDateSettings({ locale: 'en-US', timeZone: 'America/Los_Angeles' });
    expect(dayOf('2027-03-10T20:00:00.000Z')).toBe('2027-03-10');
    expect(addDays('2027-02-27', 2)).toBe('2027-03-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
  });

  it('moves a due date to another day at the same wall-clock time, across a DST change, seconds kept', () => {
    setDateSettings({ locale: 'en-US', timeZone: 'Europe/Berlin' });
    // 09:15 in Berlin on 27 March 2027 (UTC+1) → 29 March, after the clocks went forward (UTC+2): still 09:15 there.
    expect(withDay('2027-03-27T08:15:30.000Z', '2027-03-29')).toBe('2027-03-29T07:15:30.000Z');
    setDateSettings({ locale: 'en-US', timeZone: 'Pacific/Auckland' });
    expect(withDay('2027-03-10T20:00:00.000Z', '2027-03-18')).toBe('2027-03-17T20:00:00.000Z');
  });

  it("names days and months in the person's language, and starts the week on the locale's first day", () => {
    setDateSettings({ locale: 'en-US' });
    expect(formatDay('2027-03-01', 'month')).toBe('March 2027');
    expect(formatDay('2027-03-01', 'long')).toBe('Monday, March 1, 2027');
    expect(formatDay('2027-03-01', 'short')).toBe('Mar 1');
    expect(formatDay('2027-03-01', 'weekday')).toBe('Mon');
    expect(firstDayOfWeek()).toBe(0);
    setDateSettings({ locale: 'de-DE' });
    expect(formatDay('2027-03-01', 'month')).toBe('März 2027');
    expect(firstDayOfWeek()).toBe(1);
  });
});
