import { isCalendarDate, utcDateTime } from './fit-field-value.js';

/**
 * The instant a due date names: an ISO-8601 date-time (in UTC), or a date "YYYY-MM-DD" (the same
 * dates date fields take), which means 00:00 UTC of that day; null when it is neither, or outside
 * the years 0001-9999.
 */
export function parseDueDate(v: string): Date | null {
  const utc = isCalendarDate(v) ? `${v}T00:00:00.000Z` : utcDateTime(v);
  return utc && !utc.startsWith('0000-') ? new Date(utc) : null;
}
