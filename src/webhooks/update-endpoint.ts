import type { DbClient } from '../platform/db.js';
import { type EndpointScope, endpointInScope } from './access.js';
import { assertDeliverableUrl } from './destination.js';

/**
 * Changes an endpoint. Disabling pauses its deliveries (they wait, pending); enabling resumes
 * them and forgets the failure record, so an endpoint disabled for failing gets a fresh start.
 */
export async function updateEndpoint({
  db,
  scope,
  endpointId,
  changes,
  allowPrivate,
}: {
  db: DbClient;
  scope: EndpointScope;
  endpointId: number;
  changes: { url?: string | undefined; events?: string[] | null | undefined; description?: string | undefined; enabled?: boolean | undefined };
  allowPrivate: boolean;
}) {
  const current = await endpointInScope({ db, scope, endpointId });
  const url = changes.url === undefined ? undefined : await assertDeliverableUrl(changes.url, allowPrivate);
  const toggled = changes.enabled !== undefined && changes.enabled !== current.enabled;
  return db.webhookEndpoint.update({
    where: { id: current.id },
    data: {
      url,
      description: changes.description,
      events: changes.events === undefined ? undefined : [...new Set(changes.events ?? [])],
      ...(toggled && changes.enabled ? { enabled: true, disabledReason: null, disabledAt: null, failingSince: null } : {}),
      ...(toggled && !changes.enabled ? { enabled: false, disabledReason: 'manual', disabledAt: new Date() } : {}),
    },
  });
}
