import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { badRequest } from '../../platform/errors.js';
import type { BoardContext } from '../context.js';
import type { CardView } from '../schemas.js';

/** The board context of a request: the app's database and bus, and the authenticated actor. */
export function boardContext(request: FastifyRequest): BoardContext {
  return { db: request.server.db.prisma, events: request.server.events, actor: request.actor };
}

/**
 * The card version a request expects: `If-Match: "<version>"` (a bare number, or W/"…", is taken
 * too) or `version` in the body. `*` or neither: no expectation.
 */
export function expectedVersion(request: FastifyRequest, bodyVersion?: number): number | undefined {
  const header = request.headers['if-match'];
  if (header === undefined || header.trim() === '*') return bodyVersion;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!match) throw badRequest('if-match: must be a card version, like "3"');
  const version = Number(match[1]);
  if (bodyVersion !== undefined && bodyVersion !== version) throw badRequest('version: differs from If-Match');
  return version;
}

/** A card response: the full card, with its version as a strong ETag. */
export function sendCard(reply: FastifyReply, card: CardView) {
  reply.header('etag', `"${card.version}"`);
  return card;
}

/** The If-Match request header of routes that change a card (documented; parsed by expectedVersion). */
export const ifMatch = z
  .object({ 'if-match': z.string().optional().describe('"<version>": apply only if the card is still at that version (else 409).') })
  .passthrough();

/** The board context of a request that changes a card, with the version it expects (If-Match). */
export function cardContext(request: FastifyRequest) {
  return { ...boardContext(request), expectedVersion: expectedVersion(request) };
}
