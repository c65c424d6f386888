export interface User {
  id: number;
  email: string;
  name: string;
  siteAdmin: boolean;
}

export type Role = 'admin' | 'member' | 'observer';

export interface BoardSummary {
  id: number;
  name: string;
  description: string;
  archived: boolean;
  role: Role;
  createdAt: string;
  updatedAt: string;
}

export interface CardSummary {
  id: number;
  boardId: number;
  listId: number;
  title: string;
  description: string;
  position: number;
  archived: boolean;
  dueAt: string | null;
  labelIds: number[];
  memberIds: number[];
  fieldValues: Record<string, unknown>;
  checklistItems: { total: number; checked: number };
  commentCount: number;
  attachmentCount: number;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface Item {
  id: number;
  name: string;
  checked: boolean;
  position: number;
}
export interface Checklist {
  id: number;
  cardId: number;
  name: string;
  position: number;
  items: Item[];
}
export interface Comment {
  id: number;
  cardId: number;
  text: string;
  author: { userId: number | null; name: string };
  createdAt: string;
}
export interface Attachment {
  id: number;
  cardId: number;
  filename: string;
  mimeType: string;
  size: number;
  createdAt: string;
}
export interface Card extends CardSummary {
  checklists: Checklist[];
  comments: Comment[];
  attachments: Attachment[];
}

export interface List {
  id: number;
  boardId: number;
  name: string;
  position: number;
  archived: boolean;
  cards: CardSummary[];
}
export interface Label {
  id: number;
  boardId: number;
  name: string;
  color: string | null;
}
export type FieldType = 'text' | 'number' | 'date' | 'checkbox' | 'list';
export interface CustomField {
  id: number;
  boardId: number;
  name: string;
  type: FieldType;
  options: string[] | null;
}
export interface Member {
  userId: number;
  name: string;
  email: string;
  role: Role;
}
export interface Board extends BoardSummary {
  lists: List[];
  labels: Label[];
  customFields: CustomField[];
  members: Member[];
}

export interface Activity {
  id: number;
  boardId: number;
  type: string;
  /** `client`: the assistant connection it came through ("Claude"), or null. */
  actor: { userId: number | null; name: string; keyId: number | null; client?: string | null };
  data: Record<string, unknown>;
  createdAt: string;
}

export interface ApiKey {
  id: number;
  name: string;
  prefix: string;
  permission: 'read' | 'write';
  boards: number[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

export const LABEL_COLORS = ['green', 'yellow', 'orange', 'red', 'purple', 'blue', 'sky', 'lime', 'pink', 'black'] as const;
