import type { PrismaClient } from '../../platform/db.js';
import { badRequest, conflict } from '../../platform/errors.js';
import { displayPrefix, generateToken, hashToken } from '../credentials/tokens.js';

export const MAX_LIVE_KEYS = 20;
export const MAX_KEY_BOARDS = 50;
export const MAX_KEY_NAME = 60;

const DAY_MS = 86_400_000;
const EXPIRY_DAYS = { never: null, '30d': 30, '90d': 90, '1y': 365 } as const;
export type ExpiresIn = keyof typeof EXPIRY_DAYS;

export function expiryFrom(expiresIn: ExpiresIn, now = new Date()): Date | null {
  const days = EXPIRY_DAYS[expiresIn];
  return days === null ? null : new Date(now.getTime() + days * DAY_MS);
}

export interface CreateApiKeyOptions {
  db: PrismaClient;
  userId: number;
  name: string;
  permission?: 'read' | 'write' | undefined;
  /** null or undefined: all the owner's boards. */
  boardIds?: number[] | null | undefined;
  expiresAt: Date | null;
}

/**
 * A new personal API key and its token (shown once; only its hash is kept). The rules of the
 * seed: name ≤ 60, ≤ 50 boards each of which the owner is a member of (400), ≤ 20 live keys (409).
 */
export async function createApiKey({ db, userId, name, permission = 'read', boardIds, expiresAt }: CreateApiKeyOptions) {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > MAX_KEY_NAME) throw badRequest(`name: must be 1-${MAX_KEY_NAME} characters`);
  const boards = boardIds == null ? null : [...new Set(boardIds)];
  if (boards && boards.length === 0) throw badRequest('boardIds: choose at least one board, or null for all of them');
  if (boards && boards.length > MAX_KEY_BOARDS) throw badRequest(`boardIds: at most ${MAX_KEY_BOARDS} boards`);

  const token = generateToken('tsk_');
  const key = await db.$transaction(async (tx) => {
    // Serialises key creation per user, so two requests cannot both take the 20th place.
    await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${userId} FOR UPDATE`;
    if (boards?.length) {
      // The first of them out of the user's reach: tb_board_role (boards/sql/board-role.sql), the
      // one text of reach, which accounts/ asks in SQL since it cannot import boards/.
      const [missing] = await tx.$queryRaw<{ id: number }[]>`
        SELECT x.id FROM unnest(${boards}::int[]) WITH ORDINALITY AS x(id, i)
        WHERE tb_board_role(x.id, ${userId}::int, NULL) IS NULL ORDER BY x.i LIMIT 1`;
      if (missing) throw badRequest(`boardIds: board ${missing.id} is not one of your boards`);
    }
    const now = new Date();
    const live = await tx.apiKey.count({
      where: { userId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    });
    if (live >= MAX_LIVE_KEYS) throw conflict(`keys: at most ${MAX_LIVE_KEYS} live keys per person; revoke one first`);
    return tx.apiKey.create({
      data: {
        userId,
        name: trimmed,
        tokenHash: hashToken(token),
        prefix: displayPrefix(token),
        permission,
        allBoards: boards === null,
        expiresAt,
        boards: boards ? { create: boards.map((boardId) => ({ boardId })) } : undefined,
      },
      include: { boards: { select: { boardId: true } } },
    });
  });
  return { key, token };
}
