import { z } from 'zod';

export const notificationKind = z.enum(['assigned', 'mentioned', 'due', 'watched']).describe(
  'assigned: you were assigned to a card; mentioned: @you in a comment; due: a card you are assigned to is due within a day; watched: a card you watch changed.',
);

export const notification = z
  .object({
    id: z.number().int().describe('Notification id.'),
    kind: notificationKind,
    boardId: z.number().int().describe('The board it happened on.'),
    cardId: z.number().int().nullable().describe('The card, or null.'),
    actorName: z.string().nullable().describe('Who did it (null for a due date).'),
    text: z.string().describe('What happened, as a sentence ("Ada Lovelace assigned you to “Fix the login page”").'),
    read: z.boolean().describe('Marked read.'),
    createdAt: z.string().describe('ISO-8601 UTC.'),
  })
  .meta({ id: 'Notification', description: 'One thing you were told about. Only those on boards you are still a member of are listed.' });

export const notificationPage = z
  .object({
    notifications: z.array(notification).describe('Newest first.'),
    nextBefore: z.number().int().nullable().describe('Pass as ?before= for the next (older) page; null on the last page.'),
    unread: z.number().int().describe('How many are unread in all.'),
  })
  .meta({ id: 'NotificationPage', description: 'A page of your notifications, newest first, with the unread count.' });

export const unreadCount = z.object({ unread: z.number().int().describe('Unread notifications.') }).meta({ id: 'UnreadCount', description: 'How many notifications are unread.' });

export const mailSettings = z
  .object({
    assigned: z.boolean().describe('Mail me when I am assigned to a card.'),
    mentioned: z.boolean().describe('Mail me when I am @mentioned in a comment.'),
    due: z.boolean().describe('Mail me when a card I am assigned to is due within a day.'),
    watched: z.boolean().describe('Mail me when a card I watch changes.'),
  })
  .meta({ id: 'NotificationMailSettings', description: 'Which notifications are mailed to you (in one mail every few minutes); the app lists them all.' });

export const watchState = z.object({ watching: z.boolean().describe('Whether you watch the card.') }).meta({ id: 'CardWatch', description: 'Whether you watch a card (told of every change to it).' });
