import type { Tx } from '../../platform/db.js';
import type { FieldRow } from '../rows.js';

/**
 * Locks a field and reads it, or null when it is gone: FOR UPDATE to change or delete its
 * definition, FOR SHARE to set a value (values being set hold it shared, so its definition cannot
 * change under them).
 */
export async function lockField(tx: Tx, fieldId: number, mode: 'update' | 'share') {
  const [field] =
    mode === 'update'
      ? await tx.$queryRaw<FieldRow[]>`SELECT id, "boardId", name, type::text AS type, options FROM "CustomField" WHERE id = ${fieldId} FOR UPDATE`
      : await tx.$queryRaw<FieldRow[]>`SELECT id, "boardId", name, type::text AS type, options FROM "CustomField" WHERE id = ${fieldId} FOR SHARE`;
  return field ?? null;
}
