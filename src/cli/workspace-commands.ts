import { z } from 'zod';
import { findUserByEmail } from '../accounts/users/find-user.js';
import * as accounts from '../accounts/schemas.js';
import { regenerateWorkspaceToken } from '../tickets/regenerate-workspace-token.js';
import { setTicketsBoard } from '../tickets/cards/set-tickets-board.js';
import { unsafeFindWorkspace } from '../workspaces/access.js';
import { createWorkspace } from '../workspaces/create-workspace.js';
import * as s from '../workspaces/schemas.js';
import { defineCommand } from './command.js';

/** `--workspace W`: a workspace id. */
export const workspaceFlag = z.coerce
  .number({ message: 'must be a workspace id' })
  .int({ message: 'must be a workspace id' })
  .min(1, { message: 'must be a workspace id' })
  .max(2_147_483_647, { message: 'must be a workspace id' });

export const workspaceCreate = defineCommand({
  name: 'workspace create',
  usage: 'workspace create --name N --owner E',
  summary: 'create a support workspace owned by an existing user',
  flags: z.strictObject({ name: s.workspaceName, owner: accounts.email }),
  run: async ({ db }, f) => {
    const owner = await findUserByEmail({ db: db.prisma, email: f.owner });
    const workspace = await createWorkspace({ db: db.prisma, name: f.name, ownerId: owner.id });
    return { id: workspace.id, name: workspace.name };
  },
});

export const workspaceLimit = defineCommand({
  name: 'workspace limit',
  usage: 'workspace limit --workspace W --conversations N|unlimited',
  summary: 'set how many new answer conversations a workspace may start per calendar month (UTC)',
  flags: z.strictObject({
    workspace: workspaceFlag,
    conversations: z.union([
      z.literal('unlimited').transform(() => null),
      z.coerce.number({ message: 'must be a whole number or "unlimited"' }).int({ message: 'must be a whole number or "unlimited"' }).min(0).max(2_147_483_647),
    ], { message: 'must be a whole number or "unlimited"' }),
  }),
  run: async ({ db }, f) => {
    await unsafeFindWorkspace({ db: db.prisma, workspaceId: f.workspace });
    const w = await db.prisma.workspace.update({ where: { id: f.workspace }, data: { conversationLimit: f.conversations } });
    return { id: w.id, conversationLimit: w.conversationLimit };
  },
});

export const workspaceToken = defineCommand({
  name: 'workspace token',
  usage: 'workspace token --workspace W',
  summary: 'generate a new workspace token (wst_…) for the ticket API; the previous one stops at once',
  flags: z.strictObject({ workspace: workspaceFlag }),
  run: async ({ db }, f) => {
    await unsafeFindWorkspace({ db: db.prisma, workspaceId: f.workspace });
    const { token } = await regenerateWorkspaceToken({ db: db.prisma, workspaceId: f.workspace });
    return { token };
  },
});

const idFlag = (what: string) =>
  z.coerce.number({ message: `must be a ${what} id` }).int({ message: `must be a ${what} id` }).min(1, { message: `must be a ${what} id` }).max(2_147_483_647, { message: `must be a ${what} id` });

export const workspaceSet = defineCommand({
  name: 'workspace set',
  usage: 'workspace set --workspace W (--tickets-board B --tickets-list L [--solved-list S] | --tickets-board none)',
  summary: 'send a workspace\'s new tickets to a board as cards (a board its team can write), or nowhere (none)',
  flags: z
    .strictObject({
      workspace: workspaceFlag,
      ticketsBoard: z.union([z.literal('none').transform(() => null), idFlag('board')], { message: 'must be a board id or "none"' }),
      ticketsList: idFlag('list').optional(),
      solvedList: idFlag('list').optional(),
    })
    .refine((f) => f.ticketsBoard === null || f.ticketsList !== undefined, { message: '--tickets-list: required with --tickets-board', path: ['ticketsList'] }),
  run: async ({ db, events, effects }, f) => {
    await unsafeFindWorkspace({ db: db.prisma, workspaceId: f.workspace });
    const target = f.ticketsBoard === null ? null : { boardId: f.ticketsBoard, listId: f.ticketsList!, solvedListId: f.solvedList ?? null };
    // The operator speaks for the workspace (no actor); the team's write access is still checked.
    const tickets = await setTicketsBoard({ db: db.prisma, events, effects, workspaceId: f.workspace, actor: null, target });
    return { id: f.workspace, ticketsBoard: tickets };
  },
});
