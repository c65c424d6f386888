import { type Tx } from '../activity/change-board.js';
import { badRequest } from '../../platform/errors.js';

/** The label must be one of the card's board (400 otherwise: the client named the wrong one). */
export async function labelOnBoard(tx: Tx, labelId: number, boardId: number) {
  const label = await tx.label.findUnique({ where: { id: labelId }, select: { boardId: true } });
  if (!label || label.boardId !== boardId) throw badRequest(`labelId: label ${labelId} is not on this card's board`);
}
