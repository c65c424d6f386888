import type { DbClient } from '../../platform/db.js';
import { shorten } from './shorten-text.js';

/**
 * The due-date sweep: a card due within the next 24 hours tells each of its assignees once for
 * that due date (`due:<card>:<due ms>`: a sweep that runs again, here or in another process,
 * writes nothing; a new due date tells them again). Only cards on boards they are still on, not
 * archived, and only active users. `count`: how many notifications were written; `told`: whose.
 * `mailEnabled`: whether they wait for a mail (else they are marked skipped).
 */
export async function notifyDueCards({ db, mailEnabled }: { db: DbClient; mailEnabled: boolean }): Promise<{ count: number; told: number[] }> {
  const rows = await db.$queryRaw<{ cardId: number; boardId: number; title: string; dueAt: Date; userId: number }[]>`
    SELECT c.id AS "cardId", c."boardId", c.title, c."dueAt", a."userId"
    FROM "Card" c
    JOIN "List" l ON l.id = c."listId" AND NOT l.archived
    JOIN "Board" b ON b.id = c."boardId" AND NOT b.archived
    JOIN "CardAssignee" a ON a."cardId" = c.id
    JOIN "BoardMember" m ON m."boardId" = c."boardId" AND m."userId" = a."userId"
    JOIN "User" u ON u.id = a."userId" AND u.status = 'active'
    WHERE NOT c.archived AND c."dueAt" > now() AND c."dueAt" <= now() + interval '1 day'`;
  if (!rows.length) return { count: 0, told: [] };
  const mail = mailEnabled ? 'pending' : 'skipped';
  const { count } = await db.notification.createMany({
    data: rows.map((r) => ({
      userId: r.userId,
      key: `due:${r.cardId}:${new Date(r.dueAt).getTime()}`,
      kind: 'due' as const,
      boardId: r.boardId,
      cardId: r.cardId,
      text: `“${shorten(r.title, 120)}” is due ${formatDue(new Date(r.dueAt))}`,
      mail,
    })),
    skipDuplicates: true,
  });
  return { count, told: count ? rows.map((r) => r.userId) : [] };
}

/** "Sat, 28 Nov 2026, 14:00 UTC": the server knows no one's time zone. */
function formatDue(at: Date): string {
  const date = at.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const time = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${date}, ${time} UTC`;
}
