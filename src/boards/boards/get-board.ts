import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { etagOfBytes } from '../../platform/http/conditional.js';
import { notFound } from '../../platform/errors.js';
import { keyReaches } from '../access.js';
import type { BoardCache, BoardJson } from './board-cache.js';
import { readBoardSnapshot } from './board-snapshot.js';

/**
 * The board, presented, as JSON text built by the database (board-snapshot.ts), with
 * its ETag (the bytes' hash). With `cache`, from memory when it holds the board (no query at all).
 */
export async function getBoardJson({ db, actor, boardId, cache }: { db: DbClient; actor: Actor; boardId: number; cache?: BoardCache | undefined }): Promise<BoardJson> {
  // The cache knows the board's members, not the caller's key: a limited key reaches its chosen boards only, whatever the cache holds.
  if (!keyReaches(actor, boardId)) throw notFound('board: not found');
  const load = () => readBoardSnapshot(db, boardId, actor);
  const found = cache
    ? await cache.get(boardId, actor.userId, load)
    : await load().then((snapshot) => snapshot && { json: snapshot.json, etag: etagOfBytes(snapshot.json) });
  if (found === null) throw notFound('board: not found');
  return found;
}
