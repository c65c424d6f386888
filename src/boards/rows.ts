import { Prisma } from '../generated/prisma/client.js';

// Row types and column lists shared by access (which reads rows in its queries), presenters and
// domain SQL: a home of their own, so that none of those imports another for them.

/** The Card columns a CardRow holds, for raw queries (never `*`: the search vector has no JavaScript type). */
export const CARD_COLUMNS = Prisma.raw(
  ['id', 'boardId', 'listId', 'title', 'description', 'position', 'archived', 'dueAt', 'coverAttachmentId', 'version', 'createdAt', 'updatedAt'].map((c) => `c."${c}"`).join(', '),
);

export interface CardRow {
  id: number;
  boardId: number;
  listId: number;
  title: string;
  description: string;
  position: number;
  archived: boolean;
  dueAt: Date | null;
  coverAttachmentId: number | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface AttachmentRow {
  id: number;
  cardId: number;
  boardId: number;
  filename: string;
  mimeType: string;
  size: number;
  /** Null for a link attachment. */
  storageKey: string | null;
  /** A link attachment's address; null for a file. */
  url: string | null;
  createdAt: Date;
}

export interface LabelRow {
  id: number;
  boardId: number;
  name: string;
  color: string | null;
  shade: string | null;
}

export interface FieldRow {
  id: number;
  boardId: number;
  name: string;
  type: 'text' | 'number' | 'date' | 'checkbox' | 'list';
  options: string[];
}

export interface ListRow {
  id: number;
  boardId: number;
  name: string;
  position: number;
  archived: boolean;
  createdAt: Date;
  updatedAt: Date;
}
