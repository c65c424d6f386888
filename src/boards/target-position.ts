import type { Tx } from '../platform/db.js';
import { badRequest } from '../platform/errors.js';

/*
 * The position a row takes among its parent's open rows: the requested one, 0..n, or the end, n,
 * when none is requested; anything else is a 400. The rule and the count of n are written once, in
 * sql/target-position.sql, which the card move's statement calls too; these ask it (one statement
 * each) and word its refusal. The parent is locked first (lock-lists.ts, lock-boards.ts,
 * lock-card.ts); the siblings' shift is shift-positions.ts's.
 */

type Slot = { pos: number | null; n: number };

/** The 400 for a position outside 0..n: the slots' below, and a card statement's (card-refusal.ts). */
export const positionRefusal = (n: number) => badRequest(`position: must be between 0 and ${n}`);

function taken([slot]: Slot[]): number {
  if (slot!.pos === null) throw positionRefusal(slot!.n);
  return slot!.pos;
}

/** Where a card goes among the list's open cards (`except`: the card that moves): tb_card_slot. */
export async function cardSlot(tx: Tx, listId: number, requested?: number, except?: number) {
  return taken(await tx.$queryRaw<Slot[]>`SELECT pos, n FROM tb_card_slot(${listId}::int, ${requested ?? null}::int, ${except ?? null}::int)`);
}

/** Where a list goes among the board's open lists (`except`: the list that moves): tb_list_slot. */
export async function listSlot(tx: Tx, boardId: number, requested?: number, except?: number) {
  return taken(await tx.$queryRaw<Slot[]>`SELECT pos, n FROM tb_list_slot(${boardId}::int, ${requested ?? null}::int, ${except ?? null}::int)`);
}

/** Where a new checklist goes: the end of the card's (no position is requested today), tb_checklist_slot. */
export async function checklistSlot(tx: Tx, cardId: number) {
  return taken(await tx.$queryRaw<Slot[]>`SELECT pos, n FROM tb_checklist_slot(${cardId}::int, NULL)`);
}

/** Where an item goes among the checklist's (`except`: the item that moves): tb_item_slot. */
export async function itemSlot(tx: Tx, checklistId: number, requested?: number, except?: number) {
  return taken(await tx.$queryRaw<Slot[]>`SELECT pos, n FROM tb_item_slot(${checklistId}::int, ${requested ?? null}::int, ${except ?? null}::int)`);
}

/**
 * For rows appended one after another (an import): each list's end, tb_card_slot's with no position
 * requested, in one statement for all the lists, then the next position of a list each time one
 * of its cards is placed (appending there makes the end one further).
 */
export async function cardEnds(tx: Tx, listIds: number[]): Promise<(listId: number) => number> {
  const rows = listIds.length
    ? await tx.$queryRaw<{ id: number; pos: number }[]>`SELECT l.id, s.pos FROM unnest(${listIds}::int[]) AS l(id), LATERAL tb_card_slot(l.id, NULL) s`
    : [];
  return appending(new Map(rows.map((r) => [r.id, r.pos])));
}

/** As cardEnds, for lists appended to a board: the board's end (tb_list_slot), then one further each time. */
export async function listEnd(tx: Tx, boardId: number): Promise<() => number> {
  let at = await listSlot(tx, boardId);
  return () => at++;
}

function appending(ends: Map<number, number>) {
  return (parent: number) => {
    const at = ends.get(parent);
    if (at === undefined) throw new Error(`no end read for ${parent}`);
    ends.set(parent, at + 1);
    return at;
  };
}
