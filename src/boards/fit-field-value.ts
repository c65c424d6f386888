import { z } from 'zod';
import type { FieldRow } from './rows.js';
import { LONE_SURROGATE } from '../platform/schemas.js';

export type FieldValue = string | number | boolean;

const MAX_TEXT = 1000;
const isoDateTime = z.iso.datetime({ offset: true });
/** "YYYY-MM-DD" naming a real day (years 0000-9999). */
export function isCalendarDate(v: string) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3])); // not Date.UTC: it maps years 0-99 to 1900-1999
  return d.toISOString().slice(0, 10) === v;
}

/** A date-time in UTC, as toISOString() writes it, when its year is 0000-9999 (else null). */
export function utcDateTime(v: string) {
  if (!isoDateTime.safeParse(v).success) return null;
  const utc = new Date(v).toISOString();
  return /^\d{4}-/.test(utc) ? utc : null;
}

/**
 * The value as stored for a field of this type, or the reason it does not fit. Dates are kept as
 * "YYYY-MM-DD" when given so, and date-times normalised to UTC.
 */
export function fitFieldValue(field: Pick<FieldRow, 'type' | 'options'>, value: unknown): { ok: FieldValue } | { error: string } {
  switch (field.type) {
    case 'text':
      if (typeof value !== 'string') return { error: 'must be a string for a text field' };
      if (value.length > MAX_TEXT) return { error: `must be at most ${MAX_TEXT} characters` };
      if (value.includes('\u0000')) return { error: 'must not contain NUL characters' };
      // A lone surrogate (\ud800) is not Unicode text, and the JSON column refuses it.
      if (LONE_SURROGATE.test(value)) return { error: 'must be valid Unicode (no unpaired surrogates)' };
      return { ok: value };
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return { error: 'must be a finite number for a number field' };
      return { ok: value };
    case 'date':
      if (typeof value === 'string' && isCalendarDate(value)) return { ok: value };
      if (typeof value === 'string' && utcDateTime(value)) return { ok: utcDateTime(value)! };
      return { error: 'must be an ISO-8601 date ("2030-01-31") or date-time, years 0000-9999, for a date field' };
    case 'checkbox':
      if (typeof value !== 'boolean') return { error: 'must be true or false for a checkbox field' };
      return { ok: value };
    case 'list':
      if (typeof value !== 'string' || !field.options.includes(value)) {
        return { error: `must be one of the field's options (${field.options.join(', ')})` };
      }
      return { ok: value };
  }
}
