import { type EndpointRow, endpointFields } from '../../webhooks/presenters.js';
import type { BoardWebhookView } from './schemas.js';

/** A board webhook (/api). */
export function presentBoardWebhook(e: EndpointRow, now = new Date()): BoardWebhookView {
  if (e.boardId === null || e.userId === null) throw new Error(`webhook endpoint ${e.id} is a workspace's: presentEndpoint`);
  return { id: e.id, boardId: e.boardId, userId: e.userId, ...endpointFields(e, now) };
}
