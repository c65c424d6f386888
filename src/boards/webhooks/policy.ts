import type { Actor } from '../../accounts/credentials/auth.js';
import { forbidden, notFound } from '../../platform/errors.js';
import { allows, type BoardRole } from '../policy.js';

/** What may be done to a board webhook: `read` and `delete`, or `manage` (change, rotate, its delivery log, redeliver). */
export type WebhookAction = 'read' | 'delete' | 'manage';

/**
 * A board webhook is its creator's: they may do anything with it (while they can read the
 * board). A board admin may read and delete anyone's (403 for the rest); to other members
 * another's webhook is not found (404), as it would be to outsiders.
 */
export function authorizeWebhook(actor: Actor, action: WebhookAction, role: BoardRole, ownerId: number) {
  if (ownerId === actor.userId) return;
  if (!allows('webhook.moderate', role)) throw notFound('webhook: not found');
  if (action === 'manage') throw forbidden('webhook: only its creator may change it or see its deliveries; board admins may read and delete it');
}
