import type { DbClient } from '../platform/db.js';
import { AppError } from '../platform/errors.js';
import { presentTicket } from './presenters.js';

/** Opaque cursors: the last ticket id of the previous page, base64url-encoded. */
const encodeCursor = (id: number) => Buffer.from(`t:${id}`).toString('base64url');
function decodeCursor(cursor: string): number {
  const m = /^t:(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw new AppError(400, 'invalid_request', 'cursor: malformed; pass nextCursor from the previous page');
  return Number(m[1]);
}

/** A page of the workspace's tickets, newest first; of one conversation only when `conversationId` is given. */
export async function listTickets({ db, workspaceId, limit, cursor, conversationId }: { db: DbClient; workspaceId: number; limit: number; cursor?: string | undefined; conversationId?: string | undefined }) {
  const before = cursor ? decodeCursor(cursor) : undefined;
  const rows = await db.ticket.findMany({
    where: { workspaceId, ...(before ? { id: { lt: before } } : {}), ...(conversationId ? { conversationId } : {}) },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  return { tickets: page.map(presentTicket), nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!.id) : null };
}
