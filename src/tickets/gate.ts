import type { FastifyRequest } from 'fastify';
import { AppError } from '../platform/errors.js';
import { resolveWorkspaceToken } from './resolve-workspace-token.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the ticket API's gate: the workspace the token belongs to. */
    ticketWorkspaceId: number;
  }
}

const invalidToken = (message: string) => new AppError(401, 'invalid_token', message, { 'www-authenticate': 'Bearer realm="tickets"' });

/** The one gate of `/v1/tickets`: `Authorization: Bearer wst_…` and nothing else. */
export async function workspaceTokenAuthentication(request: FastifyRequest) {
  const header = request.headers.authorization;
  if (header === undefined) throw invalidToken('authorization: missing; send "Bearer wst_…" (the workspace token)');
  const token = /^Bearer +(\S+)$/i.exec(header)?.[1];
  if (!token?.startsWith('wst_')) throw invalidToken('authorization: not a workspace token (wst_…)');
  const resolved = await resolveWorkspaceToken({ db: request.server.db.prisma, token });
  if (!resolved) throw invalidToken('authorization: invalid workspace token, or replaced by a newer one');
  request.ticketWorkspaceId = resolved.workspaceId;
}
