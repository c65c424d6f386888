import { badRequest } from '../../platform/errors.js';
import type { FieldRow } from '../rows.js';

export type FieldType = FieldRow['type'];

/** Options belong to list fields only, and a list field needs some, none repeated (400 otherwise). */
export function checkFieldOptions(type: FieldType, options: string[]) {
  if (type !== 'list' && options.length > 0) throw badRequest('options: only list fields have options');
  if (type === 'list' && options.length === 0) throw badRequest('options: a list field needs at least one option');
  if (new Set(options).size !== options.length) throw badRequest('options: must not repeat');
}
