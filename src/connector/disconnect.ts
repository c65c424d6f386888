import { forgetCredentials } from '../accounts/credentials/credential-cache.js';
import type { PrismaClient } from '../platform/db.js';
import { notFound } from '../platform/errors.js';

/**
 * Disconnects one of the user's connected apps: the connection, its grant and every code and
 * token issued under it are deleted in one transaction, so its next request is refused (also in
 * other processes, which cache a token for at most a second). 404 for another user's connection.
 */
export async function disconnect({ db, userId, connectionId }: { db: PrismaClient; userId: number; connectionId: number }) {
  await db.$transaction(async (tx) => {
    const connection = await tx.connectorConnection.findFirst({ where: { id: connectionId, userId } });
    if (!connection) throw notFound('connection: not found');
    await tx.oAuthRecord.deleteMany({ where: { grantId: connection.grantId } });
    await tx.connectorConnection.delete({ where: { id: connection.id } });
  });
  forgetCredentials(db);
}
