import type { Actor } from '../platform/auth.js';
import { forbidden } from '../platform/errors.js';

export type BoardRole = 'admin' | 'member' | 'observer';

const isAdmin = (role: BoardRole) => role === 'admin';
const canEdit = (role: BoardRole) => role === 'admin' || role === 'member';
const canRead = (_role: BoardRole) => true;

/** Who may do what on a board, by role (SPEC §3 "Roles on a board"). */
const rules = {
  'board.read': canRead,
  'board.update': isAdmin,
  'board.delete': isAdmin,
  'members.manage': isAdmin,
} satisfies Record<string, (role: BoardRole) => boolean>;

export type BoardAction = keyof typeof rules;

/** Throws 403 unless `role` (the actor's on the board) allows `action`. */
export function authorize(_actor: Actor, action: BoardAction, role: BoardRole) {
  if (!rules[action](role)) throw forbidden(`your role on this board (${role}) does not allow ${action}`);
}

/** Creating boards is outside any board: a key limited to chosen boards may not. */
export function authorizeCreateBoard(actor: Actor) {
  if (actor.boardIds !== null) throw forbidden('a key limited to chosen boards cannot create boards');
}
