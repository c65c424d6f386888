import { z } from 'zod';
import { id, text } from '../platform/schemas.js';

/** Lower-cased and trimmed: addresses are unique case-insensitively. */
export const email = z
  .string()
  .trim()
  .max(254, { message: 'must be at most 254 characters' })
  .email({ message: 'must be an e-mail address' })
  .transform((v) => v.toLowerCase())
  .describe('E-mail address (case-insensitive).');

export const password = z
  .string()
  .min(8, { message: 'must be at least 8 characters' })
  .max(256, { message: 'must be at most 256 characters' })
  .describe('Password, 8-256 characters.');

export const userName = text()
  .trim()
  .min(1, { message: 'must be 1-100 characters' })
  .max(100, { message: 'must be 1-100 characters' })
  .describe('Display name, 1-100 characters.');

export const userStatus = z.enum(['active', 'blocked', 'deleted']).describe('Account status.');

export const user = z
  .object({
    id: z.number().int().describe('User id.'),
    email: z.string().describe('E-mail address, lower-cased.'),
    name: z.string().describe('Display name.'),
    siteAdmin: z.boolean().describe('May administer users.'),
  })
  .meta({ id: 'User', description: 'A user account.' });
export type UserView = z.infer<typeof user>;

export const keyPermission = z
  .enum(['read', 'write'], { message: 'must be "read" or "write"' })
  .describe('"read" keys may only GET; "write" keys may also change data, within the owner\'s roles.');

export const expiresIn = z
  .enum(['never', '30d', '90d', '1y'], { message: 'must be one of never, 30d, 90d, 1y' })
  .describe('When the key stops working: never, or 30 days, 90 days or 1 year from now.');

export const keyName = text()
  .trim()
  .min(1, { message: 'must be 1-60 characters' })
  .max(60, { message: 'must be 1-60 characters' })
  .describe('A name to recognise the key by, 1-60 characters.');

export const boardIds = z
  .array(id('Board'), { message: 'must be an array of board ids, or null for all boards' })
  .min(1, { message: 'choose at least one board, or null for all of them' })
  .max(50, { message: 'at most 50 boards' })
  .nullable()
  .describe('The boards the key may reach (at most 50, each one you are a member of), or null for all of yours.');

export const apiKey = z
  .object({
    id: z.number().int().describe('Key id.'),
    name: z.string().describe('The name given at creation.'),
    prefix: z.string().describe('"tsk_" and the first 6 characters of the token.'),
    permission: keyPermission,
    boards: z.array(z.number().int()).nullable().describe('Board ids the key is limited to; null = all the owner\'s boards.'),
    createdAt: z.string().describe('ISO-8601 UTC.'),
    lastUsedAt: z.string().nullable().describe('Last use, to the minute (may lag up to a minute).'),
    expiresAt: z.string().nullable().describe('When it stops working; null = never.'),
    revokedAt: z.string().nullable().describe('When it was revoked; null = not revoked.'),
  })
  .meta({ id: 'ApiKey', description: 'A personal API key, without its token (shown once, at creation).' });
export type ApiKeyView = z.infer<typeof apiKey>;
