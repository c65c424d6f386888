import type { Actor } from '../../src/accounts/credentials/auth.js';
import { reachableBoardIds } from '../../src/boards/access.js';
import type { BoardRole } from '../../src/boards/policy.js';
import {
  presentAttachment,
  presentBoard,
  presentChecklist,
  presentComment,
  presentCustomField,
  presentLabel,
  presentList,
  presentMember,
} from '../../src/boards/presenters.js';
import type { CardRow } from '../../src/boards/rows.js';
import type { CardSummaryView, CardView, FieldValueView } from '../../src/boards/schemas.js';
import type { DbClient } from '../../src/platform/db.js';
import { notFound } from '../../src/platform/errors.js';

/*
 * The card summary, the full card and the board as a test's second opinion: built in TypeScript
 * from Prisma rows, independently of the one source the product uses (src/boards/json/card-json.ts,
 * which PostgreSQL runs). Tests hold the two equal; nothing under src/ uses these.
 */

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What a card summary needs besides the card's row (Prisma include). */
export const cardSummaryInclude = {
  labels: { select: { labelId: true }, orderBy: { labelId: 'asc' } },
  assignees: { select: { userId: true }, orderBy: { userId: 'asc' } },
  fieldValues: { select: { fieldId: true, value: true } },
  checklists: { select: { items: { select: { checked: true } } } },
  _count: { select: { comments: true, attachments: true } },
} as const;

/** What a full card needs besides the card's row (Prisma include). */
export const fullCardInclude = {
  ...cardSummaryInclude,
  checklists: { orderBy: { position: 'asc' }, include: { items: { orderBy: { position: 'asc' } } } },
  comments: { orderBy: { id: 'desc' }, take: 50 },
  attachments: { orderBy: { id: 'asc' } },
} as const;

export interface CardRelations {
  labels: { labelId: number }[];
  assignees: { userId: number }[];
  fieldValues: { fieldId: number; value: unknown }[];
  checklists: { items: { checked: boolean }[] }[];
  _count: { comments: number; attachments: number };
}

/** The card summary, as inside a board fetch and in activities. */
export function presentCardSummary(c: CardRow & CardRelations): CardSummaryView {
  const items = c.checklists.flatMap((l) => l.items);
  return {
    id: c.id,
    boardId: c.boardId,
    listId: c.listId,
    title: c.title,
    description: c.description,
    position: c.position,
    archived: c.archived,
    dueAt: iso(c.dueAt),
    labelIds: c.labels.map((l) => l.labelId),
    memberIds: c.assignees.map((a) => a.userId),
    // Values are stored only as fitFieldValue makes them (src/boards/fit-field-value.ts), so a JSON column holds a FieldValue.
    fieldValues: Object.fromEntries(c.fieldValues.map((v) => [String(v.fieldId), v.value as FieldValueView])),
    checklistItems: { total: items.length, checked: items.filter((i) => i.checked).length },
    commentCount: c._count.comments,
    attachmentCount: c._count.attachments,
    coverAttachmentId: c.coverAttachmentId,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    version: c.version,
  };
}

/** The full card: every response of a request that reads or changes one card (reference, as above). */
export function presentCard(
  c: CardRow &
    Omit<CardRelations, 'checklists'> & {
      checklists: Parameters<typeof presentChecklist>[0][];
      comments: Parameters<typeof presentComment>[0][];
      attachments: Parameters<typeof presentAttachment>[0][];
    },
): CardView {
  return {
    ...presentCardSummary(c),
    checklists: c.checklists.map(presentChecklist),
    comments: c.comments.map(presentComment),
    attachments: c.attachments.map(presentAttachment),
  };
}

/** `GET /boards/{id}`: the board with lists (with cards), labels, custom fields and members. */
export function presentBoardDetail(
  b: Parameters<typeof presentBoard>[0] & {
    members: Parameters<typeof presentMember>[0][];
    lists: (Parameters<typeof presentList>[0] & { cards: (CardRow & CardRelations)[] })[];
    labels: Parameters<typeof presentLabel>[0][];
    customFields: Parameters<typeof presentCustomField>[0][];
  },
  role: BoardRole,
) {
  return {
    ...presentBoard(b, role),
    lists: b.lists.map((l) => ({ ...presentList(l), cards: l.cards.map(presentCardSummary) })),
    labels: b.labels.map(presentLabel),
    customFields: b.customFields.map(presentCustomField),
    members: b.members.map(presentMember),
  };
}

/**
 * The whole board through Prisma: the reference the fast path (`getBoardJson`) is tested against.
 */
export async function getBoard({ db, actor, boardId }: { db: DbClient; actor: Actor; boardId: number }) {
  const board = await db.board.findFirst({
    where: { AND: [{ id: boardId }, { id: { in: await reachableBoardIds(db, actor) } }] },
    include: {
      members: { include: { user: { select: { name: true, email: true, avatarKey: true } } }, orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }] },
      lists: {
        where: { archived: false },
        orderBy: { position: 'asc' },
        include: { cards: { where: { archived: false }, orderBy: { position: 'asc' }, include: cardSummaryInclude } },
      },
      labels: { orderBy: { id: 'asc' } },
      customFields: { orderBy: { id: 'asc' } },
    },
  });
  if (!board) throw notFound('board: not found');
  const role = board.members.find((m) => m.userId === actor.userId)!.role;
  return { board, role };
}
