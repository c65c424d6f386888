import { randomBytes } from 'node:crypto';
import { publicId } from '../../accounts/credentials/tokens.js';
import type { PrismaClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import type { WidgetCreate } from '../schemas.js';

/** A new identity secret: 256 random bits. */
export const newIdentitySecret = () => `wis_${randomBytes(32).toString('base64url')}`;

/**
 * A new widget of one of the workspace's agents (workspaceId absent: the agent's own workspace,
 * for the admin CLI). Returns the row, whose identity secret the caller shows once.
 */
export async function createWidget({ db, workspaceId, input }: { db: PrismaClient; workspaceId?: number | undefined; input: WidgetCreate }) {
  const agent = await db.agent.findFirst({ where: { id: input.agentId, ...(workspaceId !== undefined ? { workspaceId } : {}) }, select: { id: true, workspaceId: true } });
  if (!agent) throw notFound(`agentId: no agent "${input.agentId}"${workspaceId !== undefined ? ' in this workspace' : ''}`);
  const { agentId: _agentId, origins, ...settings } = input;
  return db.widget.create({
    data: {
      id: publicId('wdg_', 20),
      workspaceId: agent.workspaceId,
      agentId: agent.id,
      origins: [...new Set(origins)],
      identitySecret: newIdentitySecret(),
      ...Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)),
    },
  });
}
