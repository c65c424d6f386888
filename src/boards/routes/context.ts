import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { badRequest, conflict } from '../../platform/errors.js';
import { sendEtag } from '../../platform/http/conditional.js';
import type { BoardContext } from '../context.js';
import type { CardView } from '../schemas.js';

/** The board context of a request: the app's database and bus, and the authenticated actor. */
export function boardContext(request: FastifyRequest): BoardContext {
  return { db: request.server.db.prisma, events: request.server.events, effects: request.server.effects, actor: request.actor };
}

/**
 * The card version a request expects: `If-Match: "<version>"` (a bare number is taken too) or
 * `version` in the body. `*` or neither: no expectation. If-Match compares strongly (RFC 9110
 * §13.1.1), so a weak tag (`W/"3"`) never matches: 409, as any other version that does not match.
 */
export function expectedVersion(request: FastifyRequest, bodyVersion?: number): number | undefined {
  const header = request.headers['if-match'];
  if (header === undefined || header.trim() === '*') return bodyVersion;
  const weak = /^\s*W\/"(\d{1,9})"\s*$/.exec(header);
  if (weak) throw conflict(`if-match: a weak tag (W/"${weak[1]}") never matches; If-Match compares strong tags: send "${weak[1]}"`);
  const match = /^\s*"?(\d{1,9})"?\s*$/.exec(header);
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

/** GET of a card: its ETag, and 304 with no body when If-None-Match already has it. */
export function sendCardIfModified(request: FastifyRequest, reply: FastifyReply, card: CardView) {
  return sendEtag(request, reply, `"${card.version}"`) ? reply.send(null) : card;
}

/** The If-Match request header of routes that change a card (documented; parsed by expectedVersion). */
export const ifMatch = z
  .object({
    'if-match': z
      .string()
      .optional()
      .describe('"<version>" (the ETag): apply only if the card is still at that version, else 409. A weak tag (W/"…") never matches (409).'),
  })
  .passthrough();

/** The If-None-Match request header of conditional GETs (documented; read by sendEtag). */
export const ifNoneMatch = z
  .object({ 'if-none-match': z.string().optional().describe('An ETag of an earlier response (or several, comma-separated): 304 with no body while it is current.') })
  .passthrough();

/** The board context of a request that changes a card, with the version it expects (If-Match). */
export function cardContext(request: FastifyRequest) {
  return { ...boardContext(request), expectedVersion: expectedVersion(request) };
}
