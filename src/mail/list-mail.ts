import type { DbClient } from '../platform/db.js';
import type { MailStatus } from '../generated/prisma/client.js';

/**
 * The mail outbox as a delivery log, newest first (site admins): to whom, what, where it stands
 * and why it failed. Never the bodies (they hold working links).
 */
export async function listMail({ db, status, limit = 100 }: { db: DbClient; status?: MailStatus | undefined; limit?: number }) {
  return db.mailMessage.findMany({
    where: status ? { status } : {},
    orderBy: { id: 'desc' },
    take: limit,
    select: { id: true, kind: true, recipient: true, subject: true, status: true, attempts: true, lastError: true, nextAttemptAt: true, sentAt: true, createdAt: true },
  });
}
