import { randomBytes } from 'node:crypto';
import type { DbClient } from '../platform/db.js';
import type { NotificationKind } from '../generated/prisma/client.js';

/** Which kinds a person has mailed (the app lists every kind). */
export interface MailSettings {
  assigned: boolean;
  mentioned: boolean;
  due: boolean;
  watched: boolean;
}

const COLUMN = { assigned: 'mailAssigned', mentioned: 'mailMentioned', due: 'mailDue', watched: 'mailWatched' } as const satisfies Record<NotificationKind, string>;

type Row = { mailAssigned: boolean; mailMentioned: boolean; mailDue: boolean; mailWatched: boolean; unsubscribeToken: string };

const present = (row: Row): MailSettings => ({ assigned: row.mailAssigned, mentioned: row.mailMentioned, due: row.mailDue, watched: row.mailWatched });

/** A person's settings row, made on first use (every kind mailed) with its unsubscribe token. */
export async function settingsRow(db: DbClient, userId: number): Promise<Row> {
  return db.notificationSettings.upsert({
    where: { userId },
    create: { userId, unsubscribeToken: `uns_${randomBytes(20).toString('hex')}` },
    update: {},
  });
}

export async function getMailSettings(db: DbClient, userId: number): Promise<MailSettings> {
  return present(await settingsRow(db, userId));
}

/** Sets the kinds given; the others stay as they are. */
export async function updateMailSettings(db: DbClient, userId: number, change: Partial<MailSettings>): Promise<MailSettings> {
  await settingsRow(db, userId);
  const data = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined).map(([kind, v]) => [COLUMN[kind as NotificationKind], v]));
  return present(await db.notificationSettings.update({ where: { userId }, data }));
}

/** Whether this kind is mailed under these settings. */
export const mailsKind = (row: Row, kind: NotificationKind) => row[COLUMN[kind]];

/**
 * One click on an unsubscribe link (or a mail client's RFC 8058 POST): every kind off for the
 * token's owner. Without signing in: the token is the proof, and all it can do is this. Null for
 * an unknown token (an address whose settings were reset, a mistyped link).
 */
export async function unsubscribe(db: DbClient, token: string): Promise<{ email: string } | null> {
  const row = await db.notificationSettings.findUnique({ where: { unsubscribeToken: token }, select: { userId: true, user: { select: { email: true } } } });
  if (!row) return null;
  await db.notificationSettings.update({ where: { userId: row.userId }, data: { mailAssigned: false, mailMentioned: false, mailDue: false, mailWatched: false } });
  return { email: row.user.email };
}
