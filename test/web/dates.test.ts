// The web app's one date formatter (src/web/client/ui/dates.ts): no DOM, so imported as it is.
import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatRelative, fromDateTimeInput, setDateSettings, toDateTimeInput } from '../../src/web/client/ui/dates.js';

const at = '2026-12-06T16:52:30.000Z';

afterEach(() => setDateSettings({}));

describe('formatDate', () => {
  it("shows one format in the person's locale, zone and clock", () => {
    setDateSettings({ locale: 'en-US', timeZone: 'UTC' });
    expect(formatDate(at)).toBe('Dec 6, 2026');
    expect(formatDate(at, { time: true })).toBe('Dec 6, 2026, 4:52 PM');
    expect(formatDate(at, { seconds: true })).toBe('Dec 6, 2026, 4:52:30 PM');

    setDateSettings({ locale: 'en-US', timeZone: 'Asia/Tokyo' });
    expect(formatDate(at, { time: true })).toBe('Dec 7, 2026, 1:52 AM');

    setDateSettings({ locale: 'en-US', timeZone: 'America/New_York', hour12: false });
    expect(formatDate(at, { time: true })).toBe('Dec 6, 2026, 11:52');

    setDateSettings({ locale: 'de-DE', timeZone: 'Europe/Berlin' });
    expect(formatDate(at, { time: true })).toBe('6. Dez. 2026, 17:52');

    setDateSettings({ locale: 'fr-FR', timeZone: 'Europe/Paris' });
    expect(formatDate(at)).toBe('6 déc. 2026');

    setDateSettings({ locale: 'en-GB', timeZone: 'Europe/London', hour12: true });
    expect(formatDate(at, { time: true })).toMatch(/^6 Dec 2026, 4:52\spm$/);
  });

  it('never shows an ISO string or a date made of numbers', () => {
    setDateSettings({ locale: 'en-US', timeZone: 'UTC' });
    const text = formatDate(at, { time: true });
    expect(text).not.toContain('2026-12-06');
    expect(text).not.toMatch(/\d+\/\d+\/\d{4}/);
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });

  it('ignores an unknown zone rather than throwing', () => {
    setDateSettings({ locale: 'en-US', timeZone: 'Mars/Olympus' });
    expect(formatDate(at)).toMatch(/2026/);
  });
});

describe('formatRelative', () => {
  const now = Date.parse('2026-12-06T12:00:00Z');
  const rel = (offsetMs: number, time = true) => formatRelative(new Date(now + offsetMs).toISOString(), { now, time });
  const MIN = 60_000;
  const HOUR = 60 * MIN;

  it("uses Trello's words near now, the date beyond a week", () => {
    setDateSettings({ locale: 'en-US', timeZone: 'UTC' });
    expect(rel(-10_000)).toBe('now');
    expect(rel(-44_000)).toBe('now');
    expect(rel(-50_000)).toBe('1 minute ago');
    expect(rel(-5 * MIN)).toBe('5 minutes ago');
    expect(rel(44 * MIN)).toBe('in 44 minutes');
    expect(rel(-46 * MIN)).toBe('1 hour ago');
    expect(rel(-3 * HOUR)).toBe('3 hours ago');
    expect(rel(21 * HOUR)).toBe('in 21 hours');
    expect(rel(-23 * HOUR)).toBe('yesterday');
    expect(rel(36 * HOUR)).toBe('in 2 days');
    expect(rel(-6 * 24 * HOUR)).toBe('6 days ago');
    expect(rel(8 * 24 * HOUR)).toBe('Dec 14, 2026, 12:00 PM');
    expect(rel(8 * 24 * HOUR, false)).toBe('Dec 14, 2026');
  });

  it('counts calendar days in the shown zone', () => {
    // 30 h after Dec 6 12:00 UTC is Dec 7 18:00 UTC, tomorrow there; in Tokyo it is Dec 6 21:00 now
    // and Dec 8 03:00 then: two calendar days, though the same 30 hours.
    setDateSettings({ locale: 'en-US', timeZone: 'UTC' });
    expect(rel(30 * HOUR)).toBe('tomorrow');
    setDateSettings({ locale: 'en-US', timeZone: 'Asia/Tokyo' });
    expect(rel(30 * HOUR)).toBe('in 2 days');
  });

  it("speaks the person's language", () => {
    setDateSettings({ locale: 'de-DE', timeZone: 'Europe/Berlin' });
    expect(rel(-3 * HOUR)).toBe('vor 3 Stunden');
    expect(rel(36 * HOUR)).toBe('übermorgen');
    setDateSettings({ locale: 'fr-FR', timeZone: 'Europe/Paris' });
    expect(rel(-23 * HOUR)).toBe('hier');
  });
});

describe('datetime-local inputs', () => {
  it("read and write the wall clock of the shown zone, across a DST change", () => {
    setDateSettings({ locale: 'en-US', timeZone: 'Asia/Tokyo' });
    expect(toDateTimeInput(at)).toBe('2026-12-07T01:52');
    expect(fromDateTimeInput('2026-12-07T01:52')).toBe('2026-12-06T16:52:00.000Z');
    setDateSettings({ locale: 'en-US', timeZone: 'Europe/Paris' });
    expect(fromDateTimeInput('2026-07-01T09:00')).toBe('2026-07-01T07:00:00.000Z');
    expect(fromDateTimeInput('2026-03-29T03:30')).toBe('2026-03-29T01:30:00.000Z');
    expect(toDateTimeInput('2026-10-25T00:30:00.000Z')).toBe('2026-10-25T02:30');
    expect(fromDateTimeInput('junk')).toBeNull();
  });
});
