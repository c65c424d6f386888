import type { Actor } from '../accounts/auth.js';
import type { DbClient } from '../platform/db.js';
import { notFound } from '../platform/errors.js';
import { boardsVisibleTo } from './access.js';
import { boardSnapshotJson } from './board-snapshot.js';
import { cardSummaryInclude } from './presenters.js';

/**
 * The whole board through Prisma: the reference the fast path (`getBoardJson`) is tested against.
 */
export async function getBoard({ db, actor, boardId }: { db: DbClient; actor: Actor; boardId: number }) {
  const board = await db.board.findFirst({
    where: boardsVisibleTo(actor, { id: boardId }),
    include: {
      members: { include: { user: { select: { name: true, email: true } } }, orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }] },
      lists: {
        where: { archived: false },
        orderBy: { position: 'asc' },
        include: { cards: { where: { archived: false }, orderBy: { position: 'asc' }, include: cardSummaryInclude } },
      },
      labels: { orderBy: { id: 'asc' } },
      customFields: { orderBy: { id: 'asc' } },
    },
  });
  if (!board) throw notFound('board: not found');
  const role = board.members.find((m) => m.userId === actor.userId)!.role;
  return { board, role };
}

/** The same board as getBoard, presented, as JSON text built by the database (the fast path). */
export async function getBoardJson({ db, actor, boardId }: { db: DbClient; actor: Actor; boardId: number }) {
  const json = actor.boardIds && !actor.boardIds.includes(boardId) ? null : await boardSnapshotJson(db, boardId, actor.userId);
  if (json === null) throw notFound('board: not found');
  return json;
}
