import type { BoardRole } from './policy.js';
import type { CardRow } from './rows.js';
import type {
  AttachmentView,
  BoardView,
  CardSummaryView,
  CardView,
  ChecklistView,
  CommentView,
  CustomFieldView,
  FieldValueView,
  ItemView,
  LabelView,
  ListView,
  MemberView,
  PendingInvitationView,
} from './schemas.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentBoard(
  b: { id: number; name: string; description: string; archived: boolean; color: string; createdAt: Date; updatedAt: Date },
  role: BoardRole,
): BoardView {
  return {
    id: b.id,
    name: b.name,
    description: b.description,
    // Written only through boardColor (create and update), so the column holds one of BOARD_COLORS.
    color: b.color as BoardView['color'],
    archived: b.archived,
    role,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}

/**
 * Where the web app loads a person's picture: GET /api/avatars/{key} (attachments/find-avatar.ts
 * serves it). Here, below attachments/, because every presenter of a member needs it; the board
 * snapshot's SQL (boards/board-snapshot.ts) writes the same URL, and a test holds the two equal.
 */
export const avatarUrl = (key: string | null) => (key ? `/api/avatars/${key}` : null);

export function presentMember(m: { userId: number; role: BoardRole; user: { name: string; email: string; avatarKey: string | null } }): MemberView {
  return { userId: m.userId, name: m.user.name, email: m.user.email, role: m.role, avatarUrl: avatarUrl(m.user.avatarKey) };
}

export function presentPendingInvitation(i: {
  email: string;
  role: BoardRole;
  expiresAt: Date;
  createdAt: Date;
  invitedById: number;
  inviterName: string;
}): PendingInvitationView {
  return {
    email: i.email,
    role: i.role,
    expiresAt: i.expiresAt.toISOString(),
    createdAt: i.createdAt.toISOString(),
    invitedBy: { userId: i.invitedById, name: i.inviterName },
  };
}

export function presentList(l: { id: number; boardId: number; name: string; position: number; archived: boolean }): ListView {
  return { id: l.id, boardId: l.boardId, name: l.name, position: l.position, archived: l.archived };
}

export function presentLabel(l: { id: number; boardId: number; name: string; color: string | null; shade: string | null }): LabelView {
  return { id: l.id, boardId: l.boardId, name: l.name, color: l.color as LabelView['color'], shade: l.color ? (l.shade as LabelView['shade']) : null };
}

export function presentCustomField(f: { id: number; boardId: number; name: string; type: string; options: string[] }): CustomFieldView {
  return { id: f.id, boardId: f.boardId, name: f.name, type: f.type as CustomFieldView['type'], options: f.options };
}

export function presentItem(i: { id: number; checklistId: number; name: string; checked: boolean; position: number }): ItemView {
  return { id: i.id, checklistId: i.checklistId, name: i.name, checked: i.checked, position: i.position };
}

export function presentChecklist(l: { id: number; cardId: number; name: string; position: number; items: Parameters<typeof presentItem>[0][] }): ChecklistView {
  return { id: l.id, cardId: l.cardId, name: l.name, position: l.position, items: l.items.map(presentItem) };
}

export function presentComment(m: { id: number; cardId: number; text: string; authorId: number | null; authorName: string; createdAt: Date; updatedAt: Date; importedAt: Date | null }): CommentView {
  return {
    id: m.id,
    cardId: m.cardId,
    text: m.text,
    author: { userId: m.authorId, name: m.authorName },
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    importedAt: m.importedAt?.toISOString() ?? null,
  };
}

export function presentAttachment(a: { id: number; cardId: number; filename: string; mimeType: string; size: number; url: string | null; createdAt: Date }): AttachmentView {
  return { id: a.id, cardId: a.cardId, filename: a.filename, mimeType: a.mimeType, size: a.size, url: a.url, createdAt: a.createdAt.toISOString() };
}
