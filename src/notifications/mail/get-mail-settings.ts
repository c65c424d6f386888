import type { DbClient } from '../../platform/db.js';
import { loadMailSettings } from './load-mail-settings.js';
import { type MailSettings, presentMailSettings } from '../presenters.js';

/** Which kinds of notification the person has mailed (every kind until they choose). */
export async function getMailSettings({ db, userId }: { db: DbClient; userId: number }): Promise<MailSettings> {
  return presentMailSettings(await loadMailSettings({ db, userId }));
}
