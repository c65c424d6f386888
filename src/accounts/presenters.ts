import type { JoinLink } from './join/find-join-link.js';
import type { ApiKeyView, JoinLinkView, SessionView, UserView } from './schemas.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentUser(u: { id: number; email: string; name: string; siteAdmin: boolean; timeZone?: string | null; hour12?: boolean | null }): UserView {
  return { id: u.id, email: u.email, name: u.name, siteAdmin: u.siteAdmin, timeZone: u.timeZone ?? null, hour12: u.hour12 ?? null };
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

export function presentSession(
  row: { id: string; createdAt: Date; lastSeenAt: Date | null; expiresAt: Date; ip: string | null; userAgent: string | null },
  currentSessionId: string,
): SessionView {
  return {
    id: row.id,
    current: row.id === currentSessionId,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: iso(row.lastSeenAt),
    expiresAt: row.expiresAt.toISOString(),
    ip: row.ip,
    userAgent: row.userAgent,
  };
}

export function presentJoinLink(link: JoinLink): JoinLinkView {
  return link.kind === 'invitation'
    ? { kind: 'invitation', email: link.email, name: null, board: link.board, role: link.role, invitedBy: link.invitedBy, passwordSet: false, expiresAt: link.expiresAt.toISOString() }
    : { kind: 'account', email: link.email, name: link.name, board: null, role: null, invitedBy: null, passwordSet: link.hasPassword, expiresAt: link.expiresAt.toISOString() };
}
