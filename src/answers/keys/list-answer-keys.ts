import type { DbClient } from '../../platform/db.js';

/** The workspace's answer keys, newest first, revoked ones included. */
export function listAnswerKeys({ db, workspaceId }: { db: DbClient; workspaceId: number }) {
  return db.answerKey.findMany({ where: { workspaceId }, orderBy: { id: 'desc' } });
}
