import type { Prisma } from '../generated/prisma/client.js';
import type { Actor } from '../platform/auth.js';

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
