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
    // Your own account's settings only (sign-in, /auth/me, /account); absent where others are listed.
    timeZone: z.string().nullable().optional().describe("Your own account only: the IANA time zone the web app shows your dates in; null: the browser's."),
    hour12: z.boolean().nullable().optional().describe("Your own account only: the web app's clock, true 12-hour, false 24-hour, null the locale's."),
  })
  .meta({ id: 'User', description: 'A user account.' });
export type UserView = z.infer<typeof user>;

/** An IANA zone name this server's Intl knows ("Europe/Paris", "UTC"), or null for the browser's. */
export const timeZone = z
  .string()
  .max(64, { message: 'must be an IANA time zone such as Europe/Paris' })
  .refine((tz) => isTimeZone(tz), { message: 'must be an IANA time zone such as Europe/Paris' })
  .nullable()
  .describe("IANA time zone for the web app's dates (\"Europe/Paris\"); null: the browser's.");

function isTimeZone(tz: string) {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

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

export const session = z
  .object({
    id: z.string().describe('Session id (not the cookie: a hash of it); DELETE /account/sessions/{id} ends it.'),
    current: z.boolean().describe('The session of this request.'),
    createdAt: z.string().describe('When it signed in, ISO-8601 UTC.'),
    lastSeenAt: z.string().nullable().describe('Last request, to the minute (may lag up to a minute); null: none since signing in.'),
    expiresAt: z.string().describe('When it ends by itself.'),
    ip: z.string().nullable().describe('The address it signed in from.'),
    userAgent: z.string().nullable().describe('The browser it signed in with (its User-Agent), when known.'),
  })
  .meta({ id: 'Session', description: 'A signed-in web session of yours.' });
export type SessionView = z.infer<typeof session>;

export const joinLink = z
  .object({
    kind: z.enum(['invitation', 'account']).describe('"invitation": to a board, for an address without an account; "account": set up an account a site admin created.'),
    email: z.string().describe('The address the account has, or will have.'),
    name: z.string().nullable().describe('The account\'s current name (kind "account"); null for an invitation.'),
    board: z.object({ id: z.number().int(), name: z.string() }).nullable().describe('The board invited to (kind "invitation").'),
    role: z.string().nullable().describe('The role on that board (kind "invitation").'),
    invitedBy: z.string().nullable().describe('Who invited (kind "invitation").'),
    passwordSet: z.boolean().describe('Kind "account": the account already has a password (a password-reset link); false: a first set-up, and for invitations.'),
    expiresAt: z.string().describe('When the link stops working, ISO-8601 UTC.'),
  })
  .meta({ id: 'JoinLink', description: 'What an invitation or account set-up link opens.' });
export type JoinLinkView = z.infer<typeof joinLink>;
