import { randomUUID } from 'node:crypto';
import type { DbClient } from '../platform/db.js';
import { mailAllowance } from './caps.js';
import type { ComposedMail } from './compose.js';

export interface RecordMailOptions extends ComposedMail {
  /** What caused it, once per change (`email-change:17`): recording the same key again writes nothing. */
  key: string;
  kind: string;
  to: string;
  subject: string;
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post on notification mail). */
  headers?: Record<string, string>;
  /** Not before then (a team's reply waits for an open widget to acknowledge it); now by default. */
  at?: Date;
}

/**
 * Puts one mail in the outbox, in the transaction of the change that causes it: the mail exists
 * exactly when the change does. Whether a row was written (false: that key was recorded before,
 * or the address had its day's mails of this kind, MAIL_CAPS: dropped silently here; flows that
 * may say so call requireMailAllowance first). The caller reports 'mail.queued' after its commit
 * (platform/after-commit.ts), which wakes the worker.
 */
export async function recordMail(tx: DbClient, { key, kind, to, subject, text, html, headers, at }: RecordMailOptions): Promise<boolean> {
  if (!(await mailAllowance(tx, { kind, to })).allowed) return false;
  const { count } = await tx.mailMessage.createMany({
    data: [{ key, kind, recipient: to, subject, text, html, messageId: `<${randomUUID()}@taskboard>`, ...(headers ? { headers } : {}), ...(at ? { nextAttemptAt: at } : {}) }],
    skipDuplicates: true,
  });
  return count > 0;
}
