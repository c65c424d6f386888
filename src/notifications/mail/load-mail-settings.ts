import type { DbClient } from '../../platform/db.js';
import type { NotificationKind, NotificationSettings } from '../../generated/prisma/client.js';

/** The settings row's column for each kind of notification mail. */
export const MAIL_COLUMNS = { assigned: 'mailAssigned', mentioned: 'mailMentioned', due: 'mailDue', watched: 'mailWatched' } as const satisfies Record<NotificationKind, string>;

/** Whether each kind is mailed, as the settings row holds it. */
export type MailSettingsRow = Pick<NotificationSettings, (typeof MAIL_COLUMNS)[NotificationKind]>;

/** A person's settings row, made on first use (every kind mailed). */
export async function loadMailSettings({ db, userId }: { db: DbClient; userId: number }): Promise<MailSettingsRow> {
  return db.notificationSettings.upsert({ where: { userId }, create: { userId }, update: {} });
}

/** Whether this kind is mailed under these settings. */
export const mailsKind = (row: MailSettingsRow, kind: NotificationKind) => row[MAIL_COLUMNS[kind]];
