/**
 * Opaque page cursors (`nextCursor`) for collections ordered by more than an id: the values of
 * the last row's sort key, as base64url JSON. Clients pass them back unchanged; anything else is
 * refused (400) by the route's schema, never silently read as the first page.
 */
export function encodeCursor(values: (string | number | null)[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** The values of a cursor, when it is one `check` accepts; else null. */
export function decodeCursor<T>(raw: string, check: (values: unknown[]) => T | null): T | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(raw)) return null;
  try {
    const values: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    return Array.isArray(values) ? check(values) : null;
  } catch {
    return null;
  }
}

export const isCursorId = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 2_147_483_647;
