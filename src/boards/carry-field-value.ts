import { fitFieldValue, type FieldValue } from './fit-field-value.js';
import type { FieldRow } from './rows.js';

/** Decimal text that reads back as the same number ("12", "-0.5"; not "0x1A", "1e3" or " 12 "). */
function exactNumber(v: string) {
  const n = Number(v);
  return /^-?\d+(\.\d+)?$/.test(v) && Number.isFinite(n) && String(n) === v ? n : null;
}

/**
 * A stored value carried over to a field's new definition: kept when it still fits, converted
 * where nothing is lost (a number or date to text, a numeric text to a number), else null
 * (cleared). No card is ever left holding a value its field would refuse.
 */
export function carryFieldValue(field: Pick<FieldRow, 'type' | 'options'>, value: unknown): FieldValue | null {
  const direct = fitFieldValue(field, value);
  if ('ok' in direct) return direct.ok;
  if (field.type === 'text' && (typeof value === 'number' || typeof value === 'boolean')) return String(value);
  if (field.type === 'number' && typeof value === 'string' && exactNumber(value) !== null) return exactNumber(value);
  if (field.type === 'checkbox' && (value === 'true' || value === 'false')) return value === 'true';
  return null;
}
