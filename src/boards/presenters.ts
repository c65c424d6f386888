import type { BoardRole } from './policy.js';
import type { BoardView, CardSummaryView, CardView, ListView, MemberView } from './schemas.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentBoard(
  b: { id: number; name: string; description: string; archived: boolean; createdAt: Date; updatedAt: Date },
  role: BoardRole,
): BoardView {
  return {
    id: b.id,
    name: b.name,
    description: b.description,
    archived: b.archived,
    role,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}

export function presentMember(m: { userId: number; role: BoardRole; user: { name: string; email: string } }): MemberView {
  return { userId: m.userId, name: m.user.name, email: m.user.email, role: m.role };
}

export function presentList(l: { id: number; boardId: number; name: string; position: number; archived: boolean }): ListView {
  return { id: l.id, boardId: l.boardId, name: l.name, position: l.position, archived: l.archived };
}

export interface CardRow {
  id: number;
  boardId: number;
  listId: number;
  title: string;
  description: string;
  position: number;
  archived: boolean;
  dueAt: Date | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The card summary, as inside a board fetch and in activities. */
export function presentCardSummary(c: CardRow): CardSummaryView {
  return {
    id: c.id,
    boardId: c.boardId,
    listId: c.listId,
    title: c.title,
    description: c.description,
    position: c.position,
    archived: c.archived,
    dueAt: iso(c.dueAt),
    // Labels, assignees, custom fields, checklists, comments and attachments arrive with their issue.
    labelIds: [],
    memberIds: [],
    fieldValues: {},
    checklistItems: { total: 0, checked: 0 },
    commentCount: 0,
    attachmentCount: 0,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    version: c.version,
  };
}

/** The full card: every response of a request that reads or changes one card. */
export function presentCard(c: CardRow): CardView {
  return { ...presentCardSummary(c), checklists: [], comments: [], attachments: [] };
}

/** `GET /boards/{id}`: the board with lists (with cards), labels, custom fields and members. */
export function presentBoardDetail(
  b: Parameters<typeof presentBoard>[0] & {
    members: Parameters<typeof presentMember>[0][];
    lists: (Parameters<typeof presentList>[0] & { cards: CardRow[] })[];
  },
  role: BoardRole,
) {
  return {
    ...presentBoard(b, role),
    lists: b.lists.map((l) => ({ ...presentList(l), cards: l.cards.map(presentCardSummary) })),
    labels: [],
    customFields: [],
    members: b.members.map(presentMember),
  };
}
