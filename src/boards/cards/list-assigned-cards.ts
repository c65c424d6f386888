import { Prisma } from '../../generated/prisma/client.js';
import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { reachableBoardIds } from '../access.js';
import { loadCardSummaries } from '../json/card-json.js';
import { decodeCursor, encodeCursor, isCursorId } from '../page-cursor.js';

export interface DueCursor {
  /** The last card's due date (null: it had none, so the page was already past the dated ones). */
  dueAt: Date | null;
  id: number;
}

/** A `nextCursor` of GET /cards: the last card's due date (ISO or null) and id. */
export const decodeDueCursor = (raw: string) =>
  decodeCursor<DueCursor>(raw, ([dueAt, id, ...rest]) => {
    if (!isCursorId(id) || rest.length !== 0) return null;
    if (dueAt === null) return { dueAt: null, id };
    const at = typeof dueAt === 'string' ? new Date(dueAt) : null;
    return at && !Number.isNaN(at.getTime()) && at.toISOString() === dueAt ? { dueAt: at, id } : null;
  });

/**
 * The cards assigned to the actor's user on every board the actor reaches (a key limited to
 * chosen boards: those), soonest due first, cards without a due date last, then by id; only
 * active cards on active lists of active boards. `dueBefore`: only cards due strictly before it.
 */
export async function listAssignedCards({
  db,
  actor,
  dueBefore,
  limit,
  cursor,
}: { db: DbClient; actor: Actor; dueBefore?: Date | undefined; limit: number; cursor?: DueCursor | undefined }) {
  const boards = await reachableBoardIds(db, actor, { activeOnly: true });
  if (boards.length === 0) return { cards: [], nextCursor: null };
  const due = dueBefore ? Prisma.sql`AND c."dueAt" < ${dueBefore}` : Prisma.empty;
  const after = !cursor
    ? Prisma.empty
    : cursor.dueAt === null
      ? Prisma.sql`AND c."dueAt" IS NULL AND c.id > ${cursor.id}`
      : Prisma.sql`AND (c."dueAt" > ${cursor.dueAt} OR (c."dueAt" = ${cursor.dueAt} AND c.id > ${cursor.id}) OR c."dueAt" IS NULL)`;
  const rows = await db.$queryRaw<{ id: number; dueAt: Date | null }[]>`
    SELECT c.id, c."dueAt" FROM "Card" c
    JOIN "CardAssignee" a ON a."cardId" = c.id AND a."userId" = ${actor.userId}
    JOIN "List" l ON l.id = c."listId"
    WHERE c."boardId" IN (${Prisma.join(boards)}) AND NOT c.archived AND NOT l.archived ${due} ${after}
    ORDER BY c."dueAt" ASC NULLS LAST, c.id ASC
    LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    cards: await loadCardSummaries(db, page.map((r) => r.id)),
    nextCursor: rows.length > limit && last ? encodeCursor([last.dueAt ? last.dueAt.toISOString() : null, last.id]) : null,
  };
}
