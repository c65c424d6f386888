import { Prisma } from '../generated/prisma/client.js';
import type { Tx } from '../platform/db.js';
import { badRequest } from '../platform/errors.js';

/**
 * The labels, each of which must be on the card's board `boardId` (400 naming the first that is
 * not: the client named the wrong one), locked in id order FOR KEY SHARE, as the card's CardLabel
 * row would lock it: no label is deleted before the card's change commits, and a rename does not
 * wait. The one check of a label on a card, for every write that puts one on or takes one off
 * (create-card.ts, add-card-label.ts, remove-card-label.ts); `field` is the caller's (labelId or
 * labelIds). Answers the ids, sorted and without repeats.
 */
export async function lockLabelsOnBoard(tx: Tx, { field, labelIds, boardId }: { field: 'labelId' | 'labelIds'; labelIds: number[]; boardId: number }): Promise<number[]> {
  const ids = [...new Set(labelIds)].sort((a, b) => a - b);
  if (ids.length === 0) return [];
  const rows = await tx.$queryRaw<{ id: number }[]>`
    SELECT id FROM "Label" WHERE id IN (${Prisma.join(ids)}) AND "boardId" = ${boardId} ORDER BY id FOR KEY SHARE`;
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw badRequest(`${field}: label ${missing} is not on the card's board`);
  return ids;
}
