/**
 * Every date the web app shows goes through here: one format, in the person's locale and time zone.
 * The zone and clock come from the account (PATCH /account `timeZone`, `hour12`; null means the
 * browser's); the locale is always the browser's. No DOM: tests import this module directly.
 */

export interface DateSettings {
  /** IANA zone; null/undefined: the browser's. */
  timeZone?: string | null;
  /** true 12-hour, false 24-hour, null/undefined: the locale's. */
  hour12?: boolean | null;
  /** BCP 47 locale; undefined: the browser's (tests pass one). */
  locale?: string;
}

let settings: { timeZone: string | undefined; hour12: boolean | undefined; locale: string | undefined } = { timeZone: undefined, hour12: undefined, locale: undefined };
// Building an Intl formatter is costly next to using one, and a board shows hundreds of dates.
let cache = new Map<string, Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

/** Called with the signed-in account (app.tsx) and again when the account page changes it. */
export function setDateSettings(next: DateSettings) {
  const timeZone = next.timeZone && validZone(next.timeZone) ? next.timeZone : undefined;
  const value = { timeZone, hour12: next.hour12 ?? undefined, locale: next.locale };
  if (value.timeZone === settings.timeZone && value.hour12 === settings.hour12 && value.locale === settings.locale) return;
  settings = value;
  cache = new Map();
}

/** The browser's own zone ("Europe/Paris"), for the account page's default choice. */
export function browserTimeZone() {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The zone dates are shown in now: the account's, else the browser's. */
export function shownTimeZone() {
  return settings.timeZone ?? browserTimeZone();
}

function validZone(timeZone: string) {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

function dateFormat(kind: 'date' | 'time' | 'seconds' | 'parts') {
  let f = cache.get(kind) as Intl.DateTimeFormat | undefined;
  if (!f) {
    const { timeZone, hour12, locale } = settings;
    const clock = kind === 'date' ? {} : { hour: 'numeric', minute: '2-digit', ...(kind === 'seconds' ? { second: '2-digit' } : {}), ...(hour12 === undefined ? {} : { hour12 }) };
    f =
      kind === 'parts'
        ? new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23' })
        : new Intl.DateTimeFormat(locale, { timeZone, year: 'numeric', month: 'short', day: 'numeric', ...(clock as Intl.DateTimeFormatOptions) });
    cache.set(kind, f);
  }
  return f;
}

/**
 * The one absolute format: "Dec 6, 2026" or, with `time`, "Dec 6, 2026, 4:52 PM" (the locale's
 * order and words, the account's zone and clock). `seconds` only where seconds matter (webhook deliveries).
 */
export function formatDate(iso: string | null | undefined, { time = false, seconds = false } = {}) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return dateFormat(seconds ? 'seconds' : time ? 'time' : 'date').format(d);
}

/** A UTC calendar day ("2026-12-06", a chart's day) as "Dec 6": days are UTC there, not the person's. */
export function formatUtcDay(day: string) {
  const key = 'utc-day';
  let f = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!f) cache.set(key, (f = new Intl.DateTimeFormat(settings.locale, { month: 'short', day: 'numeric', timeZone: 'UTC' })));
  return f.format(new Date(`${day}T00:00:00Z`));
}

/** The wall-clock fields of an instant in the shown zone. */
function wallClock(ms: number) {
  const parts: Record<string, number> = {};
  for (const p of dateFormat('parts').formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour! % 24, minute: parts.minute!, second: parts.second! };
}

/** Calendar days from `now` to `ms` in the shown zone: 1 is tomorrow, -1 yesterday. */
function dayDifference(ms: number, now: number) {
  const a = wallClock(ms);
  const b = wallClock(now);
  return Math.round((Date.UTC(a.year, a.month - 1, a.day) - Date.UTC(b.year, b.month - 1, b.day)) / 86_400_000);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Trello's relative words: "now", "5 minutes ago", "in 3 hours", "yesterday", "in 2 days", up to
 * six calendar days either way; beyond that, the absolute date (formatDate, with `time` when asked).
 */
export function formatRelative(iso: string | null | undefined, { now = Date.now(), time = true } = {}) {
  if (!iso) return '';
  const ms = new Date(iso).getTime();
  if (Number.isNaN(ms)) return '';
  const diff = ms - now;
  const abs = Math.abs(diff);
  const key = 'relative';
  let rtf = cache.get(key) as Intl.RelativeTimeFormat | undefined;
  if (!rtf) cache.set(key, (rtf = new Intl.RelativeTimeFormat(settings.locale, { numeric: 'auto' })));
  if (abs < 45_000) return rtf.format(0, 'second');
  if (abs < 45 * MINUTE) return rtf.format(Math.round(diff / MINUTE), 'minute');
  if (abs < 22 * HOUR) return rtf.format(Math.round(diff / HOUR), 'hour');
  const days = dayDifference(ms, now);
  if (Math.abs(days) <= 6) return rtf.format(days, 'day');
  return formatDate(iso, { time });
}

/** An instant as a datetime-local input's value ("2026-12-06T16:52"), in the shown zone. */
export function toDateTimeInput(iso: string | number) {
  const w = wallClock(typeof iso === 'number' ? iso : new Date(iso).getTime());
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** A datetime-local input's value read in the shown zone, as an ISO instant (null when unreadable). */
export function fromDateTimeInput(value: string) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!m) return null;
  const asUtc = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!);
  // The zone's offset at that moment, taken twice so a time next to a DST change lands right.
  const offsetAt = (ms: number) => {
    const w = wallClock(ms);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
  };
  let ms = asUtc - offsetAt(asUtc);
  ms = asUtc - offsetAt(ms);
  return new Date(ms).toISOString();
}

/**
 * Calendar days ("2026-12-06"): a day of the person's calendar, not an instant. The board's
 * calendar places a card on the day its due instant falls on in the shown zone.
 */
const DAY = 86_400_000;

/** The day an instant falls on in the shown zone. */
export function dayOf(iso: string | number) {
  return toDateTimeInput(iso).slice(0, 10);
}

/** The day `days` after `day` (negative: before). */
export function addDays(day: string, days: number) {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

/** The instant `iso` moved to another day, at the same time of day in the shown zone (across a DST change too). */
export function withDay(iso: string, day: string) {
  const ms = new Date(iso).getTime();
  const moved = fromDateTimeInput(`${day}${toDateTimeInput(ms).slice(10)}`);
  // The input's minutes, plus the seconds the original had (zones differ by whole minutes).
  return moved && new Date(new Date(moved).getTime() + (((ms % MINUTE) + MINUTE) % MINUTE)).toISOString();
}

/** The first day of the week in the person's locale: 0 Sunday … 6 Saturday (Monday where the browser cannot tell). */
export function firstDayOfWeek() {
  try {
    const locale = new Intl.Locale(new Intl.DateTimeFormat(settings.locale).resolvedOptions().locale) as Intl.Locale & { getWeekInfo?: () => { firstDay: number }; weekInfo?: { firstDay: number } };
    const first = (locale.getWeekInfo?.() ?? locale.weekInfo)?.firstDay;
    return first === undefined ? 1 : first % 7;
  } catch {
    return 1;
  }
}

const DAY_STYLES = {
  month: { year: 'numeric', month: 'long' },
  weekday: { weekday: 'short' },
  short: { month: 'short', day: 'numeric' },
  long: { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

/** A calendar day in the locale's words: `month` "December 2026", `weekday` "Sun", `short` "Dec 6", `long` "Sunday, December 6, 2026". */
export function formatDay(day: string, style: keyof typeof DAY_STYLES) {
  const key = `day-${style}`;
  let f = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!f) cache.set(key, (f = new Intl.DateTimeFormat(settings.locale, { ...DAY_STYLES[style], timeZone: 'UTC' })));
  return f.format(new Date(`${day}T00:00:00Z`));
}
