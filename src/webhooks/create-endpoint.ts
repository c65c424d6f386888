import type { DbClient } from '../platform/db.js';
import { badRequest } from '../platform/errors.js';
import { assertDeliverableUrl } from './destination.js';
import { generateSecret } from './signing.js';

/** How many endpoints one workspace may have. */
export const MAX_ENDPOINTS = 20;

/** A new endpoint and its secret (shown once). No event types = every type. */
export async function createEndpoint({
  db,
  workspaceId,
  input,
  allowPrivate,
}: {
  db: DbClient;
  workspaceId: number;
  input: { url: string; events?: string[] | null | undefined; description?: string | undefined };
  allowPrivate: boolean;
}) {
  const url = await assertDeliverableUrl(input.url, allowPrivate);
  const count = await db.webhookEndpoint.count({ where: { workspaceId } });
  if (count >= MAX_ENDPOINTS) throw badRequest(`webhooks: a workspace has at most ${MAX_ENDPOINTS} endpoints; delete one first`);
  const secret = generateSecret();
  const endpoint = await db.webhookEndpoint.create({
    data: { workspaceId, url, secret, events: [...new Set(input.events ?? [])], description: input.description ?? '' },
  });
  return { endpoint, secret };
}
