import type { PrismaClient } from '../../platform/db.js';
import { lookupCredential } from './credential-cache.js';
import { hashToken, isWellFormedToken } from './tokens.js';
import { touchLastUsed } from '../keys/touch-last-used.js';

/** Who a credential speaks for, as authentication needs it. */
export interface Principal {
  userId: number;
  name: string;
  email: string;
  siteAdmin: boolean;
  /** Shown dates' IANA time zone (null: the browser's). */
  timeZone?: string | null;
  /** 12-hour clock (true), 24-hour (false), the locale's (null). */
  hour12?: boolean | null;
}

export interface KeyCredential extends Principal {
  keyId: number;
  permission: 'read' | 'write';
  /** null: all the owner's boards. */
  boardIds: number[] | null;
}

export interface SessionCredential extends Principal {
  sessionId: string;
}

interface CachedKey {
  credential: KeyCredential;
  expiresAt: number | null;
  usable: boolean;
  /** The owner is blocked: said so, rather than "invalid", so the owner knows why. */
  ownerBlocked: boolean;
  lastUsedAt: number | null;
  /** lastUsedAt is never written earlier than this (the key's creation). */
  notBefore: number;
}

/** An API key and its owner, as the lookup reads them. */
interface KeyRow {
  id: number;
  userId: number;
  permission: 'read' | 'write';
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  name: string;
  email: string;
  siteAdmin: boolean;
  timeZone: string | null;
  hour12: boolean | null;
  status: string;
  /** null: all the owner's boards. */
  boardIds: number[] | null;
}

/** A session and its user, as the lookup reads them. */
interface SessionRow {
  userId: number;
  createdAt: Date;
  expiresAt: Date;
  lastSeenAt: Date | null;
  name: string;
  email: string;
  siteAdmin: boolean;
  timeZone: string | null;
  hour12: boolean | null;
  status: string;
}

interface CachedSession {
  credential: SessionCredential;
  expiresAt: number;
  usable: boolean;
  lastUsedAt: number | null;
  notBefore: number;
}

/** The live key behind a tsk_ token, or null (unknown, revoked, expired, owner not active). */
export async function resolveApiKey(options: { db: PrismaClient; token: string; now?: number }) {
  const result = await checkApiKey(options);
  return 'refused' in result ? null : result.key;
}

/**
 * The live key behind a tsk_ token, or why there is none: `blocked` when the key would work but
 * its owner is blocked, `invalid` otherwise (unknown, revoked, expired, owner deleted).
 */
export async function checkApiKey({ db, token, now = Date.now() }: { db: PrismaClient; token: string; now?: number }): Promise<{ key: KeyCredential } | { refused: 'invalid' | 'blocked' }> {
  const invalid = { refused: 'invalid' as const };
  if (!isWellFormedToken(token, 'tsk_')) return invalid;
  const hash = hashToken(token);
  const entry = await lookupCredential(db, `key:${hash}`, async (): Promise<CachedKey | null> => {
    // One statement (Prisma's include sends one per relation): it goes ahead of the pool's queue
    // as a whole (aheadOfQueue), where a second statement would wait its turn.
    const [key] = await db.$queryRaw<KeyRow[]>`
      SELECT k.id, k."userId", k.permission::text AS permission, k."createdAt", k."lastUsedAt", k."expiresAt", k."revokedAt",
        u.name, u.email, u."siteAdmin", u."timeZone", u.hour12, u.status::text AS status,
        CASE WHEN k."allBoards" THEN NULL
          ELSE COALESCE((SELECT array_agg(b."boardId" ORDER BY b."boardId") FROM "ApiKeyBoard" b WHERE b."keyId" = k.id), '{}') END AS "boardIds"
      FROM "ApiKey" k JOIN "User" u ON u.id = k."userId"
      WHERE k."tokenHash" = ${hash}`;
    return key ? {
      credential: {
        keyId: key.id,
        userId: key.userId,
        name: key.name,
        email: key.email,
        siteAdmin: key.siteAdmin,
        timeZone: key.timeZone,
        hour12: key.hour12,
        permission: key.permission,
        boardIds: key.boardIds,
      },
      expiresAt: key.expiresAt?.getTime() ?? null,
      usable: key.revokedAt === null && key.status === 'active',
      ownerBlocked: key.revokedAt === null && key.status === 'blocked',
      lastUsedAt: key.lastUsedAt?.getTime() ?? null,
      notBefore: key.createdAt.getTime(),
    } : null;
  });
  if (!entry || (entry.expiresAt !== null && entry.expiresAt <= now)) return invalid;
  if (!entry.usable) return entry.ownerBlocked ? { refused: 'blocked' } : invalid;
  const keyId = entry.credential.keyId;
  touchLastUsed(entry, now, (at) =>
    db.apiKey.updateMany({ where: { id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: at } }] }, data: { lastUsedAt: at } }),
  );
  return { key: entry.credential };
}

/** The active user behind a session cookie, or null (unknown, expired, user not active). */
export async function resolveSession({ db, token, now = Date.now() }: { db: PrismaClient; token: string; now?: number }) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const id = hashToken(token);
  const entry = await lookupCredential(db, `session:${id}`, async (): Promise<CachedSession | null> => {
    // One statement, like the key's.
    const [session] = await db.$queryRaw<SessionRow[]>`
      SELECT s."userId", s."createdAt", s."expiresAt", s."lastSeenAt", u.name, u.email, u."siteAdmin", u."timeZone", u.hour12, u.status::text AS status
      FROM "Session" s JOIN "User" u ON u.id = s."userId"
      WHERE s.id = ${id}`;
    return session ? {
      credential: {
        sessionId: id,
        userId: session.userId,
        name: session.name,
        email: session.email,
        siteAdmin: session.siteAdmin,
        timeZone: session.timeZone,
        hour12: session.hour12,
      },
      expiresAt: session.expiresAt.getTime(),
      usable: session.status === 'active',
      lastUsedAt: session.lastSeenAt?.getTime() ?? null,
      notBefore: session.createdAt.getTime(),
    } : null;
  });
  if (!entry || !entry.usable || entry.expiresAt <= now) return null;
  // "Last seen" in the user's session list, to the minute.
  touchLastUsed(entry, now, (at) =>
    db.session.updateMany({ where: { id, OR: [{ lastSeenAt: null }, { lastSeenAt: { lt: at } }] }, data: { lastSeenAt: at } }),
  );
  return entry.credential;
}
