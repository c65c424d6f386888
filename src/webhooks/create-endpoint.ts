import type { DbClient } from '../platform/db.js';
import { badRequest } from '../platform/errors.js';
import { assertDeliverableUrl } from './destination.js';
import { generateSecret } from './signing.js';

/** How many endpoints one workspace may have, and one user on one board. */
export const MAX_ENDPOINTS = 20;

/** Who an endpoint belongs to: a workspace, or a user on a board (a board webhook). */
export type EndpointOwner = { workspaceId: number } | { boardId: number; userId: number };

/** A new endpoint and its secret (shown once). No event types = every type. */
export async function createEndpoint({
  db,
  owner,
  input,
  allowPrivate,
}: {
  db: DbClient;
  owner: EndpointOwner;
  input: { url: string; events?: string[] | null | undefined; description?: string | undefined };
  allowPrivate: boolean;
}) {
  const url = await assertDeliverableUrl(input.url, allowPrivate);
  const count = await db.webhookEndpoint.count({ where: owner });
  if (count >= MAX_ENDPOINTS) {
    throw badRequest('workspaceId' in owner
      ? `webhooks: a workspace has at most ${MAX_ENDPOINTS} endpoints; delete one first`
      : `webhooks: you have at most ${MAX_ENDPOINTS} webhooks on one board; delete one first`);
  }
  const secret = generateSecret();
  const endpoint = await db.webhookEndpoint.create({
    data: { ...owner, url, secret, events: [...new Set(input.events ?? [])], description: input.description ?? '' },
  });
  return { endpoint, secret };
}
