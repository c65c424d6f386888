import type { Actor } from '../accounts/credentials/auth.js';
import type { DbClient } from '../platform/db.js';
import { forbidden } from '../platform/errors.js';

export type BoardRole = 'admin' | 'member' | 'observer';

const isAdmin = (role: BoardRole) => role === 'admin';
const canEdit = (role: BoardRole) => role === 'admin' || role === 'member';
const anyRole = (_role: BoardRole) => true;

/** Who may do what on a board, by role (SPEC §3 "Roles on a board"). */
const rules = {
  'board.read': anyRole,
  'board.update': isAdmin,
  'board.delete': isAdmin,
  'members.manage': isAdmin,
  'list.write': canEdit,
  'list.delete': isAdmin,
  'card.write': canEdit,
  'card.delete': isAdmin,
  'label.write': canEdit,
  'card.assign': canEdit,
  'field.define': isAdmin,
  'field.set': canEdit,
  'checklist.write': canEdit,
  'comment.create': anyRole,
  'comment.moderate': isAdmin,
  'attachment.write': canEdit,
  // Anyone who can read the board may subscribe to its events: a webhook reveals nothing the
  // event stream does not (Trello allows it too).
  'webhook.create': anyRole,
  // Board admins see and delete every webhook of the board, not only their own.
  'webhook.moderate': isAdmin,
} satisfies Record<string, (role: BoardRole) => boolean>;

export type BoardAction = keyof typeof rules;

/** Throws 403 unless `role` (the actor's on the board) allows `action`. */
export function authorize(_actor: Actor, action: BoardAction, role: BoardRole) {
  if (!rules[action](role)) throw roleRefusal(role, action);
}

/** The 403 for a role that does not allow an action: authorize's, and a card statement's (card-refusal.ts). */
export function roleRefusal(role: BoardRole, action: BoardAction) {
  return forbidden(`your role on this board (${role}) does not allow ${action}`);
}

/** Whether `role` allows `action`, for choices rather than refusals (which rows a list shows). */
export function allows(action: BoardAction, role: BoardRole): boolean {
  return rules[action](role);
}

/** The roles that allow `action`, for checks made inside the database (cards/sql/move-card.sql). */
export function rolesAllowing(action: BoardAction): BoardRole[] {
  return (['admin', 'member', 'observer'] as const).filter((role) => rules[action](role));
}

/** Creating boards is outside any board: a key limited to chosen boards may not. */
export function authorizeCreateBoard(actor: Actor) {
  if (actor.boardIds !== null) throw forbidden('a key limited to chosen boards cannot create boards');
}

/**
 * Whether the actor may move or copy something to another board: a key limited to chosen boards
 * never may (the target is then another of its chosen boards: 403; outside them it was already
 * not found). The refusal itself is tb_cross_board (sql/cross-board.sql), which authorizeCrossBoard
 * asks and the card move's statement (cards/sql/move-card.sql) asks under its locks with this answer.
 */
export function mayCrossBoards(actor: Actor): boolean {
  return actor.boardIds === null;
}

/**
 * Throws 403 when something moves or is copied to another board and the actor may not: one
 * statement, tb_cross_board's answer, so the card copy and the list move refuse by the same text
 * as the card move (a round trip only for those two writes; the move asks inside its own statement).
 */
export async function authorizeCrossBoard(db: DbClient, actor: Actor, fromBoardId: number, toBoardId: number) {
  const [row] = await db.$queryRaw<{ refusal: unknown }[]>`SELECT tb_cross_board(${fromBoardId}::int, ${toBoardId}::int, ${mayCrossBoards(actor)}) AS refusal`;
  if (row?.refusal) throw crossBoardRefusal();
}

/** The 403 of authorizeCrossBoard, and of a card statement that found the same. */
export const crossBoardRefusal = () => forbidden('a key limited to chosen boards cannot move or copy to another board');
