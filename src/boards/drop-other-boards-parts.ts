import type { Tx } from '../platform/db.js';

/**
 * Fits cards to `boardId` (after a move or a copy there): labels of other boards mapped to its label of the
 * same name and colour (created when missing); custom-field values of other boards and assignees
 * who are not members of it dropped.
 */
export async function dropOtherBoardsParts(tx: Tx, cardIds: number[], boardId: number) {
  if (cardIds.length === 0) return;
  // Written once, in sql/drop-other-boards-parts.sql, which a card move runs too.
  await tx.$executeRaw`SELECT tb_drop_other_boards_parts(${cardIds}::int[], ${boardId}::int)`;
}
