import type { Tx } from '../../platform/db.js';
import { badRequest } from '../../platform/errors.js';
import type { FieldRow } from '../rows.js';

export type FieldType = FieldRow['type'];

/** Options belong to list fields only, and a list field needs some. */
export function checkOptions(type: FieldType, options: string[]) {
  if (type !== 'list' && options.length > 0) throw badRequest('options: only list fields have options');
  if (type === 'list' && options.length === 0) throw badRequest('options: a list field needs at least one option');
  if (new Set(options).size !== options.length) throw badRequest('options: must not repeat');
}

/** Locks a field (values being set hold it shared, so its definition cannot change under them). */
export async function lockField(tx: Tx, fieldId: number, mode: 'update' | 'share') {
  const [field] =
    mode === 'update'
      ? await tx.$queryRaw<FieldRow[]>`SELECT id, "boardId", name, type::text AS type, options FROM "CustomField" WHERE id = ${fieldId} FOR UPDATE`
      : await tx.$queryRaw<FieldRow[]>`SELECT id, "boardId", name, type::text AS type, options FROM "CustomField" WHERE id = ${fieldId} FOR SHARE`;
  return field ?? null;
}
