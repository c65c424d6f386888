import { changeBoard } from '../activity/change-board.js';
import type { Tx } from '../../platform/db.js';
import { requireCard, requireList } from '../access.js';
import type { BoardContext } from '../context.js';
import { authorize, authorizeCrossBoard } from '../policy.js';
import { shiftCards } from '../shift-positions.js';
import { lockLists, stillOn } from '../lock-lists.js';
import { lockCard } from '../lock-card.js';
import { cardSlot } from '../target-position.js';
import { dropOtherBoardsParts } from '../drop-other-boards-parts.js';
import { listArchivedRefusal } from './card-refusal.js';
import { fullCard, summaryOf } from '../json/card-json.js';
import { RETRY, withRetry } from '../retry.js';

/**
 * A copy of the card (title, description, due date, labels, checklists, field values; not
 * assignees, comments or attachments) at `position` of `listId` (default: the end of its own
 * list). On another board it is fitted as a moved card is (dropOtherBoardsParts): its labels
 * mapped by name and colour, the old board's field values dropped.
 */
export async function copyCard(ctx: BoardContext & { cardId: number; listId?: number | undefined; position?: number | undefined; title?: string | undefined }) {
  return withRetry(async () => {
    const { card, role } = await requireCard(ctx.db, ctx.actor, ctx.cardId);
    const target = await requireList(ctx.db, ctx.actor, ctx.listId ?? card.listId);
    authorize(ctx.actor, 'card.write', role);
    await authorizeCrossBoard(ctx.db, ctx.actor, card.boardId, target.list.boardId);
    authorize(ctx.actor, 'card.write', target.role);
    return changeBoard(ctx, async (tx, record) => {
      const targetList = stillOn(await lockLists(tx, [target.list.id]), target.list.id, target.list.boardId);
      if (targetList === RETRY) return RETRY;
      if (targetList.archived) throw listArchivedRefusal('listId');
      // The source held (lists, then the card) on the board it was authorised on, so its parts are
      // that board's while they are copied: moved to another board meanwhile, it is read again.
      const source = await lockCard(tx, card, { anyList: true });
      if (source === RETRY) return RETRY;
      const position = await cardSlot(tx, targetList.id, ctx.position);
      await shiftCards(tx, targetList.id, null, position);
      const copy = await tx.card.create({
        data: {
          boardId: targetList.boardId,
          listId: targetList.id,
          title: ctx.title ?? source.title,
          description: source.description,
          dueAt: source.dueAt,
          position,
        },
      });
      await copyCardParts(tx, source.id, copy.id);
      if (copy.boardId !== source.boardId) await dropOtherBoardsParts(tx, [copy.id], copy.boardId);
      const full = await fullCard(tx, copy.id);
      await record({
        boardId: copy.boardId,
        type: 'card.copied',
        data: { cardId: copy.id, sourceCardId: card.id, listId: copy.listId, card: summaryOf(full) },
      });
      return full;
    });
  });
}

/** Copies labels, field values and checklists with their items from one card to another (as they are: a copy to another board is fitted after). */
async function copyCardParts(tx: Tx, fromId: number, toId: number) {
  await tx.$executeRaw`INSERT INTO "CardLabel" ("cardId", "labelId") SELECT ${toId}, "labelId" FROM "CardLabel" WHERE "cardId" = ${fromId}`;
  await tx.$executeRaw`INSERT INTO "CardFieldValue" ("cardId", "fieldId", value) SELECT ${toId}, "fieldId", value FROM "CardFieldValue" WHERE "cardId" = ${fromId}`;
  const checklists = await tx.checklist.findMany({ where: { cardId: fromId }, include: { items: true }, orderBy: { position: 'asc' } });
  for (const list of checklists) {
    await tx.checklist.create({
      data: {
        cardId: toId,
        name: list.name,
        position: list.position,
        items: { create: list.items.map((i) => ({ name: i.name, checked: i.checked, position: i.position })) },
      },
    });
  }
}
