import type { Actor } from '../accounts/credentials/auth.js';
import type { DbClient } from '../platform/db.js';
import { etagOfBytes } from '../platform/conditional.js';
import { notFound } from '../platform/errors.js';
import { boardsVisibleTo } from './access.js';
import type { BoardCache, BoardJson } from './board-cache.js';
import { readBoardSnapshot } from './board-snapshot.js';
import { cardSummaryInclude } from './presenters.js';

/**
 * The whole board through Prisma: the reference the fast path (`getBoardJson`) is tested against.
 */
export async function getBoard({ db, actor, boardId }: { db: DbClient; actor: Actor; boardId: number }) {
  const board = await db.board.findFirst({
    where: boardsVisibleTo(actor, { id: boardId }),
    include: {
      members: { include: { user: { select: { name: true, email: true, avatarKey: true } } }, orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }] },
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

/**
 * The same board as getBoard, presented, as JSON text built by the database (the fast path), with
 * its ETag (the bytes' hash). With `cache`, from memory when it holds the board (no query at all).
 */
export async function getBoardJson({ db, actor, boardId, cache }: { db: DbClient; actor: Actor; boardId: number; cache?: BoardCache | undefined }): Promise<BoardJson> {
  // A limited key reaches its chosen boards only, whatever the cache holds.
  if (actor.boardIds && !actor.boardIds.includes(boardId)) throw notFound('board: not found');
  const load = () => readBoardSnapshot(db, boardId, actor.userId);
  const found = cache
    ? await cache.get(boardId, actor.userId, load)
    : await load().then((snapshot) => snapshot && { json: snapshot.json, etag: etagOfBytes(snapshot.json) });
  if (found === null) throw notFound('board: not found');
  return found;
}
