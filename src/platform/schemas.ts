import { z } from 'zod';

/** PostgreSQL's INTEGER; a larger id can name nothing, and must not reach the database. */
export const MAX_ID = 2_147_483_647;

/** A resource id in a JSON body: a positive 32-bit integer. */
export const id = (what: string) =>
  z
    .number({ message: 'must be a positive integer id' })
    // The range first: the first issue is the message, and 1e20 is also "not a (safe) integer".
    .min(1, { message: 'must be a positive integer id' })
    .max(MAX_ID, { message: `must be at most ${MAX_ID}` })
    .int({ message: 'must be a positive integer id' })
    .describe(`${what} id.`);

/** `{ id }` path parameters (strings on the wire). */
export const idParams = (what: string) =>
  z.strictObject({ id: z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), id(what)) });

/** An unpaired UTF-16 surrogate: not Unicode, and PostgreSQL's JSON refuses it. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * `value` cut to at most `max` UTF-16 units, `suffix` (an ellipsis, say) included when it is cut,
 * never through a surrogate pair: the one way every path cuts text to a limit (a cut pair would be
 * a lone surrogate, which the database refuses or turns into U+FFFD).
 */
export function cutText(value: string, max: number, suffix = ''): string {
  if (value.length <= max) return value;
  const part = value.slice(0, max - suffix.length);
  return (/[\ud800-\udbff]$/.test(part) ? part.slice(0, -1) : part) + suffix;
}

/**
 * Text that PostgreSQL can store, one rule for every text field: no NUL characters (PostgreSQL
 * rejects them) and no unpaired UTF-16 surrogate (not Unicode; JSON columns reject it).
 */
export const text = () =>
  z
    .string()
    .refine((v) => !v.includes('\u0000'), { message: 'must not contain NUL characters' })
    .refine((v) => !LONE_SURROGATE.test(v), { message: 'must be valid Unicode (no unpaired surrogates)' });

/** A body whose fields are all optional may also be left out altogether (treated as `{}`). */
export const optionalBody = <T extends z.ZodType>(schema: T) => z.preprocess((v) => v ?? {}, schema);

/**
 * A whole number in the query string, documented as an integer: a string of `digits` becomes a
 * number, which must lie in min..max; anything else ("1e2", "0x10", " 5") is refused with `message`.
 */
export const queryInteger = ({ min, max, message, digits = /^\d{1,10}$/ }: { min: number; max: number; message: string; digits?: RegExp }) =>
  z.preprocess(
    (v) => (typeof v === 'string' && digits.test(v) ? Number(v) : v),
    z.number({ message }).int({ message }).min(min, { message }).max(max, { message }),
  );

/**
 * `?limit=` within 1..max (default `dflt`) as the support console's routes take it: documented as a
 * string of digits, as their OpenAPI documents have always said. (/api's page size is the boards
 * module's `limitQuery`, documented as an integer.)
 */
export const limitQueryString = (max: number, dflt: number) =>
  z
    .string()
    .regex(/^\d+$/, { message: `must be a whole number from 1 to ${max}` })
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, { message: `must be a whole number from 1 to ${max}` })
    .optional()
    .transform((n) => n ?? dflt);

/** `?flag=true|false` in the query string, documented as a boolean; anything else is refused with `message`. */
export const queryBoolean = (message = 'must be true or false') =>
  z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean({ message }));
