import type { Notification, NotificationSettings } from '../generated/prisma/client.js';

/** A notification as the API shows it (schemas.ts `notification`). */
export const presentNotification = (n: Pick<Notification, 'id' | 'kind' | 'boardId' | 'cardId' | 'actorName' | 'text' | 'readAt' | 'createdAt'>) => ({
  id: n.id,
  kind: n.kind as 'assigned' | 'mentioned' | 'due' | 'watched',
  boardId: n.boardId,
  cardId: n.cardId,
  actorName: n.actorName,
  text: n.text,
  read: n.readAt !== null,
  createdAt: n.createdAt.toISOString(),
});

/** Which kinds a person has mailed (the app lists every kind). */
export interface MailSettings {
  assigned: boolean;
  mentioned: boolean;
  due: boolean;
  watched: boolean;
}

/** A person's settings row as the API shows it (schemas.ts `mailSettings`). */
export const presentMailSettings = (row: Pick<NotificationSettings, 'mailAssigned' | 'mailMentioned' | 'mailDue' | 'mailWatched'>): MailSettings => ({
  assigned: row.mailAssigned,
  mentioned: row.mailMentioned,
  due: row.mailDue,
  watched: row.mailWatched,
});
