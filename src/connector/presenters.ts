import type { ConnectionView } from './schemas.js';

export function presentConnection(c: { id: number; clientName: string; clientId: string; scope: string; createdAt: Date; lastUsedAt: Date | null }): ConnectionView {
  return {
    id: c.id,
    clientName: c.clientName,
    clientId: c.clientId,
    scopes: c.scope.split(' ').filter((s): s is 'read' | 'write' => s === 'read' || s === 'write'),
    createdAt: c.createdAt.toISOString(),
    lastUsedAt: c.lastUsedAt?.toISOString() ?? null,
  };
}
