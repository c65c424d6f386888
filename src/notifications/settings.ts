import { randomBytes } from 'node:crypto';
import { hashToken } from '../accounts/credentials/tokens.js';
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

type Row = { mailAssigned: boolean; mailMentioned: boolean; mailDue: boolean; mailWatched: boolean };

const present = (row: Row): MailSettings => ({ assigned: row.mailAssigned, mentioned: row.mailMentioned, due: row.mailDue, watched: row.mailWatched });

/** A person's settings row, made on first use (every kind mailed). */
export async function settingsRow(db: DbClient, userId: number): Promise<Row> {
  return db.notificationSettings.upsert({ where: { userId }, create: { userId }, update: {} });
}

/**
 * A new unsubscribe link's token for one mail to the person (uns_ and 40 hex digits): only its
 * SHA-256 is stored, as for every token here; the token itself is only in that mail.
 */
export async function createUnsubscribeToken(db: DbClient, userId: number): Promise<string> {
  const token = `uns_${randomBytes(20).toString('hex')}`;
  await db.unsubscribeLink.create({ data: { tokenHash: hashToken(token), userId } });
  return token;
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
 * token's owner. Without signing in: the token is the proof, and all it can do is this; it keeps
 * working for NOTIFY_RETENTION, and the one in a person's latest mail always (prune-notifications.ts).
 * Null for an unknown token (a mistyped link, a pruned one, a deleted account).
 */
export async function unsubscribe(db: DbClient, token: string): Promise<{ email: string } | null> {
  const link = await db.unsubscribeLink.findUnique({ where: { tokenHash: hashToken(token) }, select: { userId: true, user: { select: { email: true } } } });
  if (!link) return null;
  const off = { mailAssigned: false, mailMentioned: false, mailDue: false, mailWatched: false };
  await db.notificationSettings.upsert({ where: { userId: link.userId }, create: { userId: link.userId, ...off }, update: off });
  return { email: link.user.email };
}
