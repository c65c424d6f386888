import { z } from 'zod';
import { findUserByEmail } from '../accounts/users/find-user.js';
import * as s from '../accounts/schemas.js';
import { listBoards } from '../boards/boards/list-boards.js';
import { presentBoard } from '../boards/presenters.js';
import type { Actor } from '../accounts/credentials/auth.js';
import { defineCommand } from './command.js';

/** A user acting as through a web session, with everything their roles allow (`write`) or only reading. */
export function userActor(user: { id: number; name: string; email: string; siteAdmin: boolean }, permission: Actor['permission']): Actor {
  return { userId: user.id, name: user.name, email: user.email, siteAdmin: user.siteAdmin, via: 'session', keyId: null, sessionId: null, permission, boardIds: null };
}

export const boardList = defineCommand({
  name: 'board list',
  usage: 'board list --email E [--archived]',
  summary: "list a user's boards with their role on each, as GET /api/boards shows them (--archived: the archived ones)",
  flags: z.strictObject({ email: s.email, archived: z.literal(true, { message: 'takes no value' }).optional() }),
  run: async ({ db }, f) => {
    const user = await findUserByEmail({ db: db.prisma, email: f.email });
    // The user's own view, through the same query as the API: every board they are a member of.
    const actor = userActor(user, 'read');
    const rows = await listBoards({ db: db.prisma, actor, archived: f.archived === true });
    return { boards: rows.map(({ board, role }) => presentBoard(board, role)) };
  },
});
