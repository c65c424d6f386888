import type { ApiKeyView, UserView } from './schemas.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentUser(u: { id: number; email: string; name: string; siteAdmin: boolean }): UserView {
  return { id: u.id, email: u.email, name: u.name, siteAdmin: u.siteAdmin };
}

export function presentApiKey(k: {
  id: number;
  name: string;
  prefix: string;
  permission: 'read' | 'write';
  allBoards: boolean;
  boards: { boardId: number }[];
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}): ApiKeyView {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    permission: k.permission,
    boards: k.allBoards ? null : k.boards.map((b) => b.boardId).sort((a, b) => a - b),
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: iso(k.lastUsedAt),
    expiresAt: iso(k.expiresAt),
    revokedAt: iso(k.revokedAt),
  };
}
