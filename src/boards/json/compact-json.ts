/**
 * SQL expressions that make PostgreSQL write compact JSON text (JSON.stringify's form) for the
 * board fetch and card reads (card-json.ts, boards/board-snapshot.ts): the ground both stand on, so the
 * board's snapshot does not reach into a sub-domain for them.
 */

/** timestamptz → the ISO-8601 UTC text JavaScript's toISOString() writes. */
export const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A SQL expression that is already JSON text (an integer column as ::text, a nested object), put in as is. */
export interface JsonText {
  json: string;
}
export const jsonText = (json: string): JsonText => ({ json });

/**
 * A JSON object built by PostgreSQL as text in JSON.stringify's compact form (`{"k":v,…}`), where
 * json_build_object writes `{"k" : v, …}`: the board fetch is sent as the database wrote it, with
 * no parse and re-serialisation in JavaScript (which cost about 1.7 ms per 200-card board). Kept
 * as text all the way up (a json value would be parsed again at each level): a value is a SQL
 * expression that to_json writes (NULL as null), or JsonText put in as is.
 */
export function jsonObject(fields: Record<string, string | JsonText>): string {
  const parts = Object.entries(fields).map(([key, value], i) => {
    const text = typeof value === 'string' ? `coalesce(to_json(${value})::text, 'null')` : `coalesce(${value.json}, 'null')`;
    return `'${i ? ',' : '{'}"${key}":', ${text}`;
  });
  return `concat(${parts.join(', ')}, '}')`;
}

/** A compact JSON array (text) of `element` (JSON text) over an aggregate's rows, `[]` when there are none (json_agg writes `, \n ` between elements). */
export function jsonArray(element: string, orderBy: string): string {
  return `coalesce('[' || string_agg(${element}, ',' ORDER BY ${orderBy}) || ']', '[]')`;
}

/** A compact JSON object (text) of `key` (text) → `value` (json or jsonb) over an aggregate's rows, `{}` when there are none. */
export function jsonObjectAgg(key: string, value: string, orderBy: string): string {
  return `coalesce('{' || string_agg(to_json(${key})::text || ':' || (${value})::text, ',' ORDER BY ${orderBy}) || '}', '{}')`;
}
