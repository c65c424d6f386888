import type { Prisma } from '../generated/prisma/client.js';
import type { Actor } from '../platform/auth.js';
import type { DbClient } from '../platform/db.js';
import { notFound } from '../platform/errors.js';
import type { BoardRole } from './policy.js';

/**
 * The boards an actor may reach, as a query condition: boards its user is a member of now,
 * narrowed to a limited key's chosen boards. A board outside it is simply not found (404), the
 * same answer as for a board that does not exist. A limited key whose boards are gone has an
 * empty list here and reaches nothing: it never widens to all boards.
 */
function boardWhereForActor(actor: Actor): Prisma.BoardWhereInput {
  return {
    members: { some: { userId: actor.userId } },
    ...(actor.boardIds ? { id: { in: actor.boardIds } } : {}),
  };
}

/**
 * `where` narrowed to the actor's reach. Always combine with AND, never by spreading: a spread
 * lets the key's `id: { in: … }` silently replace a requested `id`.
 */
export function boardsVisibleTo(actor: Actor, where: Prisma.BoardWhereInput = {}): Prisma.BoardWhereInput {
  return { AND: [where, boardWhereForActor(actor)] };
}

/** The actor's role on a board, or null when the board is out of its reach. */
export async function roleOn(db: DbClient, actor: Actor, boardId: number): Promise<BoardRole | null> {
  if (actor.boardIds && !actor.boardIds.includes(boardId)) return null;
  const member = await db.boardMember.findUnique({
    where: { boardId_userId: { boardId, userId: actor.userId } },
    select: { role: true },
  });
  return member?.role ?? null;
}

/** The actor's role on a board it can reach; 404 otherwise. */
export async function requireRole(db: DbClient, actor: Actor, boardId: number, what = 'board'): Promise<BoardRole> {
  const role = await roleOn(db, actor, boardId);
  if (!role) throw notFound(`${what}: not found`);
  return role;
}

/** A list on a board the actor can reach, with the actor's role there; 404 otherwise. */
export async function requireList(db: DbClient, actor: Actor, listId: number) {
  const list = await db.list.findUnique({ where: { id: listId } });
  const role = list && (await roleOn(db, actor, list.boardId));
  if (!list || !role) throw notFound('list: not found');
  return { list, role };
}

/** A card on a board the actor can reach, with the actor's role there; 404 otherwise. */
export async function requireCard(db: DbClient, actor: Actor, cardId: number) {
  const card = await db.card.findUnique({ where: { id: cardId } });
  const role = card && (await roleOn(db, actor, card.boardId));
  if (!card || !role) throw notFound('card: not found');
  return { card, role };
}
