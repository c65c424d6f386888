import type { FastifyInstance } from 'fastify';
import type { Actor } from '../accounts/credentials/auth.js';
import { z } from 'zod';
import { id } from '../platform/schemas.js';
import { type WorkspaceAction, workspaceForUser } from './access.js';

/** `:workspaceId` in the support console's paths. */
export const workspaceParam = {
  workspaceId: z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), id('Workspace')),
};

/**
 * The console's one authorization rule: the session's user must be a member of the workspace in
 * the path (else 404), with an owner or admin role to change anything but their verdicts on answers (else 403).
 */
export function consoleWorkspace(request: { server: FastifyInstance; actor: Actor; params: { workspaceId: number } }, action: WorkspaceAction) {
  return workspaceForUser({ db: request.server.db.prisma, userId: request.actor.userId, workspaceId: request.params.workspaceId, action });
}
