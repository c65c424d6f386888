import { createHash } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client.js';
import type { DbClient, PrismaClient } from '../platform/db.js';
import { AppError, badRequest } from '../platform/errors.js';
import type { Effects } from '../platform/after-commit.js';
import { changeWithOutbox, type RecordWebhookEvent } from '../webhooks/outbox.js';
import { presentTicket } from './presenters.js';
import type { TicketView } from './schemas.js';

export interface TicketInput {
  subject: string;
  description?: string | undefined;
  priority?: 'low' | 'normal' | 'high' | 'urgent' | undefined;
  requester: { email: string };
  conversationId?: string | undefined;
}

export interface CreatedTicket {
  status: number;
  ticket: TicketView;
  /** The response of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

/** How long an Idempotency-Key's first response is replayed. */
const IDEMPOTENCY_WINDOW_HOURS = 24;

async function insertTicket(tx: DbClient, record: RecordWebhookEvent, workspaceId: number, input: TicketInput) {
  if (input.conversationId) {
    const conversation = await tx.conversation.findFirst({ where: { id: input.conversationId, workspaceId }, select: { id: true } });
    if (!conversation) throw badRequest(`conversationId: no conversation "${input.conversationId}" in this workspace`);
  }
  const ticket = await tx.ticket.create({
    data: {
      workspaceId,
      subject: input.subject,
      description: input.description ?? '',
      priority: input.priority ?? 'normal',
      requesterEmail: input.requester.email,
      conversationId: input.conversationId ?? null,
    },
  });
  const view = presentTicket(ticket);
  // In the ticket's transaction: the webhook exists exactly when the ticket does.
  await record({ workspaceId, type: 'ticket.created', data: view, at: ticket.createdAt });
  return view;
}

/**
 * A new ticket of the workspace. With an Idempotency-Key (Stripe's semantics), the same key and
 * request within 24 hours returns the first response and creates nothing; the same key with a
 * different request is 409 idempotency_conflict. Concurrent retries wait for the first one: the
 * key's row is inserted in the ticket's transaction, so a second insert blocks until it commits.
 */
export async function createTicket({
  db,
  workspaceId,
  input,
  idempotencyKey,
  effects,
}: {
  db: PrismaClient;
  workspaceId: number;
  input: TicketInput;
  idempotencyKey?: string | undefined;
  /**
   * After the commit: the ticket.created deliveries' wake ('webhook.queued'), and the new ticket's
   * card ('ticket.created', waited for: the ticket is answered with its card made; a replayed
   * request makes none).
   */
  effects: Effects;
}): Promise<CreatedTicket> {
  const created = await insertOnce({ db, workspaceId, input, idempotencyKey, effects });
  if (!created.replayed) await effects.committed({ kind: 'ticket.created', ticket: created.ticket });
  return created;
}

async function insertOnce({ db, workspaceId, input, idempotencyKey, effects }: {
  db: PrismaClient;
  workspaceId: number;
  input: TicketInput;
  idempotencyKey?: string | undefined;
  effects: Effects;
}): Promise<CreatedTicket> {
  if (!idempotencyKey) {
    return { status: 201, ticket: await changeWithOutbox({ db, effects }, (tx, record) => insertTicket(tx, record, workspaceId, input)), replayed: false };
  }
  const requestHash = createHash('sha256').update(JSON.stringify(['POST /v1/tickets', input])).digest('hex');
  return changeWithOutbox({ db, effects }, async (tx, record) => {
    await tx.$executeRaw`
      DELETE FROM "IdempotencyKey" WHERE "workspaceId" = ${workspaceId} AND key = ${idempotencyKey}
        AND "createdAt" < now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})`;
    const inserted = await tx.$queryRaw<{ key: string }[]>`
      INSERT INTO "IdempotencyKey" ("workspaceId", key, "requestHash", status, response, "createdAt")
      VALUES (${workspaceId}, ${idempotencyKey}, ${requestHash}, 0, '{}'::jsonb, now())
      ON CONFLICT ("workspaceId", key) DO NOTHING
      RETURNING key`;
    if (inserted.length === 0) {
      const first = await tx.idempotencyKey.findUniqueOrThrow({ where: { workspaceId_key: { workspaceId, key: idempotencyKey } } });
      if (first.requestHash !== requestHash) {
        throw new AppError(409, 'idempotency_conflict', 'Idempotency-Key: already used with a different request in the last 24 hours');
      }
      return { status: first.status, ticket: first.response as unknown as TicketView, replayed: true };
    }
    const ticket = await insertTicket(tx, record, workspaceId, input);
    await tx.idempotencyKey.update({
      where: { workspaceId_key: { workspaceId, key: idempotencyKey } },
      data: { status: 201, response: ticket as unknown as Prisma.InputJsonObject },
    });
    return { status: 201, ticket, replayed: false };
  });
}
