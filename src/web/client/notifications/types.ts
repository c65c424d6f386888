/** GET /api/notifications's items (src/notifications/schemas.ts). */
export interface AppNotification {
  id: number;
  kind: 'assigned' | 'mentioned' | 'due' | 'watched';
  boardId: number;
  cardId: number | null;
  actorName: string | null;
  text: string;
  read: boolean;
  createdAt: string;
}

export interface NotificationPage {
  notifications: AppNotification[];
  nextBefore: number | null;
  unread: number;
}

/** Where a notification leads: its card, open on its board. */
export const notificationHref = (n: AppNotification) => `/boards/${n.boardId}${n.cardId ? `?card=${n.cardId}` : ''}`;
