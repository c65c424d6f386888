import type { DbClient } from '../../platform/db.js';
import type { NotificationKind } from '../../generated/prisma/client.js';
import { loadMailSettings, MAIL_COLUMNS } from './load-mail-settings.js';
import { type MailSettings, presentMailSettings } from '../presenters.js';

/** Sets the kinds given; the others stay as they are. */
export async function setMailSettings({ db, userId, change }: { db: DbClient; userId: number; change: Partial<MailSettings> }): Promise<MailSettings> {
  await loadMailSettings({ db, userId });
  const data = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined).map(([kind, v]) => [MAIL_COLUMNS[kind as NotificationKind], v]));
  return presentMailSettings(await db.notificationSettings.update({ where: { userId }, data }));
}
