import { actorColumns, changeBoard, changeBoardInOneStatement, type InsertedActivity, type Tx } from '../activity/change-board.js';
import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { requireCard, requireItem, requireList } from '../access.js';
import type { BoardContext } from '../context.js';
import { authorize, authorizeCrossBoard, type BoardRole, rolesAllowing } from '../policy.js';
import { countCards, END, lockLists, shiftCards, stillOn, targetPosition } from '../positions.js';
import { checkVersion, fullCard, lockCard, versionConflict } from './card-change.js';
import { removeItem } from '../checklists/checklists.js';
import { FULL_CARD_SQL, loadFullCard, summaryOf } from './card-json.js';
import { RETRY, withRetry } from '../retry.js';
import type { CardView } from '../schemas.js';

/** One card the actor can reach, in full. */
export async function getCard({ db, actor, cardId }: { db: DbClient; actor: Actor; cardId: number }): Promise<CardView> {
  await requireCard(db, actor, cardId);
  const card = await loadFullCard(db, cardId);
  if (!card) throw notFound('card: not found');
  return card;
}

export interface CardChanges {
  title?: string | undefined;
  description?: string | undefined;
  dueAt?: Date | null | undefined;
  archived?: boolean | undefined;
}

/**
 * Edits a card; archiving closes its gap, restoring puts it at the end of its list. One statement,
 * tb_update_card (prisma/migrations/…_update_card_function), as a move is: see moveCard.
 */
export async function updateCard(ctx: BoardContext & { cardId: number; changes: CardChanges; expectedVersion?: number | undefined }) {
  const { title, description, dueAt, archived } = ctx.changes;
  return cardStatement(ctx, (db, who, writers, inTransaction) => db.$queryRaw<{ outcome: CardOutcome }[]>`
    SELECT tb_update_card(${ctx.cardId}::int, ${ctx.expectedVersion ?? null}::int,
      ${ctx.actor.userId}::int, ${ctx.actor.boardIds}::int[], ${writers}::text[],
      ${who.actorUserId}::int, ${who.actorKeyId}::int, ${who.actorName}::text, ${who.actorClient}::text,
      ${title ?? null}::text, ${description ?? null}::text, ${dueAt !== undefined}::boolean, ${dueAt ?? null}::timestamptz, ${archived ?? null}::boolean,
      ${FULL_CARD_SQL}::text, ${inTransaction}::boolean) AS outcome`);
}

/** What tb_move_card and tb_update_card answer: the card and its activities, or why nothing was written. */
type CardOutcome =
  | { card: CardView; activities: (Omit<InsertedActivity, 'createdAt'> & { createdAt: string })[] }
  | { error: 'hooked' | 'retry' | 'card_archived' | 'list_archived' | 'list_archived_restore' }
  | { error: 'not_found'; what: 'card' | 'list' }
  | { error: 'forbidden'; role: BoardRole }
  | { error: 'cross_board'; from: number; to: number }
  | { error: 'version'; expected: number; version: number }
  | { error: 'position'; max: number };

/**
 * Runs a card change that is one database statement (a move, an edit): the API's hottest writes,
 * where each round trip to the database cost more than the work itself. What the statement checks
 * is decided here: the roles that may write cards (policy.ts), the key's boards, the actor
 * recorded, the full card's SQL, and the errors its refusals become. A retry (the card moved
 * between reading and locking) runs it again in a new transaction.
 */
function cardStatement(
  ctx: BoardContext & { position?: number | undefined },
  run: (db: Tx | BoardContext['db'], who: ReturnType<typeof actorColumns>, writers: BoardRole[], inTransaction: boolean) => Promise<{ outcome: CardOutcome }[]>,
): Promise<CardView> {
  const who = actorColumns(ctx.actor);
  const writers = rolesAllowing('card.write');
  return withRetry(() =>
    changeBoardInOneStatement<CardView | typeof RETRY>(ctx, async (db, inTransaction) => {
      const [row] = await run(db, who, writers, inTransaction);
      const outcome = row!.outcome;
      if (!('error' in outcome)) {
        return { result: outcome.card, activities: outcome.activities.map((a) => ({ ...a, createdAt: new Date(a.createdAt) })) };
      }
      if (outcome.error === 'hooked') return { hooked: true };
      if (outcome.error === 'retry') return { result: RETRY, activities: [] };
      throw refusal(ctx, outcome);
    }),
  );
}

/**
 * Moves a card to `position` (default: the end) of a list on its board or on another board the
 * actor may write to. Both lists are locked, then the card, so concurrent moves keep positions
 * 0..n-1; anything that moved meanwhile is read and authorised again, then 409. One statement,
 * tb_move_card (prisma/migrations/…_move_card_function).
 */
export async function moveCard(ctx: BoardContext & { cardId: number; listId: number; position?: number | undefined; expectedVersion?: number | undefined }) {
  return cardStatement(ctx, (db, who, writers, inTransaction) => db.$queryRaw<{ outcome: CardOutcome }[]>`
    SELECT tb_move_card(${ctx.cardId}::int, ${ctx.listId}::int, ${ctx.position ?? null}::int, ${ctx.expectedVersion ?? null}::int,
      ${ctx.actor.userId}::int, ${ctx.actor.boardIds}::int[], ${writers}::text[],
      ${who.actorUserId}::int, ${who.actorKeyId}::int, ${who.actorName}::text, ${who.actorClient}::text,
      ${FULL_CARD_SQL}::text, ${inTransaction}::boolean) AS outcome`);
}

/** The error a refused statement answers with: the same checks, and words, as every other card change. */
function refusal(ctx: BoardContext & { position?: number | undefined }, outcome: Exclude<CardOutcome, { card: CardView }>): Error {
  switch (outcome.error) {
    case 'not_found':
      return notFound(`${outcome.what}: not found`);
    case 'forbidden':
      authorize(ctx.actor, 'card.write', outcome.role);
      break;
    case 'cross_board':
      authorizeCrossBoard(ctx.actor, outcome.from, outcome.to);
      break;
    case 'version':
      return versionConflict(outcome.expected, outcome.version);
    case 'card_archived':
      return badRequest('card: is archived; restore it before moving it');
    case 'list_archived':
      return badRequest('listId: the list is archived');
    case 'list_archived_restore':
      return badRequest('card: its list is archived; restore the list first');
    case 'position':
      targetPosition(ctx.position, outcome.max);
      break;
  }
  return new Error(`a card statement refused a change (${outcome.error}) that the same checks here allow`);
}

/**
 * A copy of the card (title, description, due date, labels, checklists, field values; not
 * assignees, comments or attachments) at `position` of `listId` (default: the end of its own
 * list). On another board, labels and values of the source board are left behind.
 */
export async function copyCard(ctx: BoardContext & { cardId: number; listId?: number | undefined; position?: number | undefined; title?: string | undefined }) {
  return withRetry(async () => {
    const { card, role } = await requireCard(ctx.db, ctx.actor, ctx.cardId);
    const target = await requireList(ctx.db, ctx.actor, ctx.listId ?? card.listId);
    authorize(ctx.actor, 'card.write', role);
    authorizeCrossBoard(ctx.actor, card.boardId, target.list.boardId);
    authorize(ctx.actor, 'card.write', target.role);
    return changeBoard(ctx, async (tx, record) => {
      const targetList = stillOn(await lockLists(tx, [target.list.id]), target.list.id, target.list.boardId);
      if (targetList === RETRY) return RETRY;
      if (targetList.archived) throw badRequest('listId: the list is archived');
      const position = targetPosition(ctx.position, await countCards(tx, targetList.id));
      await shiftCards(tx, targetList.id, position, END, 1);
      const copy = await tx.card.create({
        data: {
          boardId: targetList.boardId,
          listId: targetList.id,
          title: ctx.title ?? card.title,
          description: card.description,
          dueAt: card.dueAt,
          position,
        },
      });
      await copyCardParts(tx, card.id, copy.id, copy.boardId);
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

/** Deletes a card (board admins only), closing its gap. */
export async function deleteCard(ctx: BoardContext & { cardId: number; expectedVersion?: number | undefined }) {
  await withRetry(async () => {
    const { card, role } = await requireCard(ctx.db, ctx.actor, ctx.cardId);
    authorize(ctx.actor, 'card.delete', role);
    return changeBoard(ctx, async (tx, record) => {
      if (stillOn(await lockLists(tx, [card.listId]), card.listId, card.boardId) === RETRY) return RETRY;
      const current = await lockCard(tx, card);
      if (current === RETRY) return RETRY;
      checkVersion(current, ctx.expectedVersion);
      if (!current.archived) await shiftCards(tx, current.listId, current.position + 1, END, -1);
      await tx.card.delete({ where: { id: current.id } });
      await record({ boardId: current.boardId, type: 'card.deleted', data: { cardId: current.id, listId: current.listId } });
      return current;
    });
  });
}

/** Copies labels, field values (those of `boardId`) and checklists with their items from one card to another. */
async function copyCardParts(tx: Tx, fromId: number, toId: number, boardId: number) {
  await tx.$executeRaw`INSERT INTO "CardLabel" ("cardId", "labelId")
    SELECT ${toId}, cl."labelId" FROM "CardLabel" cl JOIN "Label" l ON l.id = cl."labelId"
    WHERE cl."cardId" = ${fromId} AND l."boardId" = ${boardId}`;
  await tx.$executeRaw`INSERT INTO "CardFieldValue" ("cardId", "fieldId", value)
    SELECT ${toId}, v."fieldId", v.value FROM "CardFieldValue" v JOIN "CustomField" f ON f.id = v."fieldId"
    WHERE v."cardId" = ${fromId} AND f."boardId" = ${boardId}`;
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

/**
 * Turns a checklist item into a card placed right after the item's card in its list, and removes
 * the item, in one transaction: the list is locked, then the source card (the lock protocol).
 */
export async function convertItem(ctx: BoardContext & { itemId: number }) {
  return withRetry(async () => {
    const { row: item } = await requireItem(ctx.db, ctx.actor, ctx.itemId);
    const { card, role } = await requireCard(ctx.db, ctx.actor, item.cardId);
    authorize(ctx.actor, 'card.write', role);
    return changeBoard(ctx, async (tx, record) => {
      const list = stillOn(await lockLists(tx, [card.listId]), card.listId, card.boardId);
      if (list === RETRY) return RETRY;
      const source = await lockCard(tx, card);
      if (source === RETRY) return RETRY;
      const current = await tx.checklistItem.findUnique({ where: { id: item.id } });
      if (!current) throw notFound('item: not found');
      if (source.archived || list.archived) throw badRequest('item: its card is archived; restore it before converting items');
      const position = source.position + 1;
      await shiftCards(tx, list.id, position, END, 1);
      const created = await tx.card.create({ data: { boardId: source.boardId, listId: list.id, title: current.name, position } });
      await removeItem(tx, current);
      await tx.card.update({ where: { id: source.id }, data: { version: { increment: 1 } } });
      const [full, sourceFull] = [await fullCard(tx, created.id), await fullCard(tx, source.id)];
      await record({ boardId: source.boardId, type: 'card.created', data: { cardId: created.id, listId: list.id, fromItemId: current.id, card: summaryOf(full) } });
      await record({
        boardId: source.boardId,
        type: 'item.converted',
        data: { cardId: source.id, checklistId: current.checklistId, itemId: current.id, newCardId: created.id, card: summaryOf(sourceFull) },
      });
      return full;
    });
  });
}
