import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Generator } from '../../answers/generators/generator.js';
import { checkAttachmentSizes } from '../../answers/read-attachments.js';
import { AppError } from '../../platform/errors.js';
import { v1ErrorBody } from '../../platform/openapi.js';
import { askWidget } from '../conversations/ask-widget.js';
import { handOff } from '../conversations/hand-off.js';
import { getVisitorConversation, listVisitorConversations } from '../conversations/list-visitor-conversations.js';
import { acknowledgeVisitorReply, rateVisitorTicket } from '../conversations/visitor-ticket.js';
import * as rs from '../../tickets/replies/schemas.js';
import { visitorTokenOf, widgetOriginGate } from '../gate.js';
import { presentPublicWidget } from '../presenters.js';
import * as s from '../schemas.js';
import { resolveVisitor } from '../visitors/resolve-visitor.js';
import { startVisit } from '../visitors/start-visit.js';

const tags = ['widget'];
const security = [{ visitorToken: [] }];
const errors = {
  400: v1ErrorBody.describe('invalid_request: the message names the field at fault.'),
  401: v1ErrorBody.describe('invalid_visitor_token'),
  403: v1ErrorBody.describe('origin_not_allowed: the page is not on one of the widget\'s origins (no CORS headers either).'),
  404: v1ErrorBody.describe('not_found: no such widget, or no such conversation of this visitor.'),
  429: v1ErrorBody.describe('rate_limited (Retry-After), or conversation_limit_reached.'),
};
const idParam = { id: s.widgetId };
/** Attachments travel inside the JSON, as for POST /v1/answer. */
const ASK_BODY_LIMIT = 100 * 1024 * 1024;

const hash = (value: string) => createHash('sha256').update(value).digest('base64url');

/** The public surface the widget script calls from the host page (`/v1/widgets/{id}/…`), gated by origin and visitor token. */
export const widgetPublicRoutes: FastifyPluginAsyncZod<{ config: Config; generator: Generator }> = async (app, { config, generator }) => {
  const db = app.db.prisma;
  app.addHook('onRequest', widgetOriginGate);
  app.options('/v1/widgets/:id', { schema: { hide: true } }, async () => undefined);
  app.options('/v1/widgets/:id/*', { schema: { hide: true } }, async () => undefined);

  // Past the root limiter (per address, whose hook marks the request as limited): each visitor, and each
  // widget as a whole, has a budget of messages in the same counters, checked here in turn.
  const limiter = (max: number, key: (request: FastifyRequest) => string, who: string) => {
    const check = app.createRateLimit({ max, timeWindow: config.RATE_LIMIT_WINDOW_MS, keyGenerator: key });
    return async (request: FastifyRequest) => {
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) {
        const wait = Math.max(1, result.ttlInSeconds);
        throw new AppError(429, 'rate_limited', `too many messages ${who}: at most ${max} per ${Math.ceil(config.RATE_LIMIT_WINDOW_MS / 1000)} s; retry in ${wait} s`, { 'retry-after': String(wait) });
      }
    };
  };
  const perVisitor = limiter(config.WIDGET_VISITOR_MESSAGES_MAX, (request) => `wv:${hash(visitorTokenOf(request) ?? request.ip)}`, 'from this visitor');
  const perWidget = limiter(config.WIDGET_MESSAGES_MAX, (request) => `wdg:${request.widget.id}`, 'to this widget');

  app.get(
    '/v1/widgets/:id',
    { schema: { operationId: 'getWidget', tags, security: [], summary: 'The widget\'s look and words', params: z.strictObject(idParam), response: { 200: s.publicWidget, 403: errors[403], 404: errors[404] } } },
    async (request) => presentPublicWidget(request.widget),
  );

  app.post(
    '/v1/widgets/:id/visitors',
    {
      schema: {
        operationId: 'startVisit',
        tags,
        security: [],
        summary: 'Start a visit: an anonymous (or verified) visitor token valid 30 days',
        description: 'With `identity`, its signature must be the widget\'s (identity verification); a widget that requires verification refuses visitors without one (403 identity_not_verified).',
        params: z.strictObject(idParam),
        body: s.visitorStart,
        response: { 201: s.visitorToken, 400: errors[400], 403: v1ErrorBody.describe('origin_not_allowed, or identity_not_verified.'), 404: errors[404] },
      },
    },
    async (request, reply) => reply.status(201).send(await startVisit({ db, widget: request.widget, identity: request.body.identity })),
  );

  app.get(
    '/v1/widgets/:id/conversations',
    { schema: { operationId: 'listVisitorConversations', tags, security, summary: 'The visitor\'s conversations, newest first', params: z.strictObject(idParam), response: { 200: z.object({ conversations: z.array(z.object({ id: z.string(), updatedAt: z.string() })) }), ...errors } } },
    async (request) => {
      const visitor = await resolveVisitor({ db, widgetId: request.widget.id, token: visitorTokenOf(request) });
      return { conversations: await listVisitorConversations({ db, visitor }) };
    },
  );

  app.get(
    '/v1/widgets/:id/conversations/:conversationId',
    { schema: { operationId: 'getVisitorConversation', tags, security, summary: 'One of the visitor\'s conversations', params: z.strictObject({ ...idParam, conversationId: z.string().max(40) }), response: { 200: s.widgetConversation, ...errors } } },
    async (request) => {
      const visitor = await resolveVisitor({ db, widgetId: request.widget.id, token: visitorTokenOf(request) });
      return getVisitorConversation({ db, visitor, conversationId: request.params.conversationId });
    },
  );

  app.post(
    '/v1/widgets/:id/messages',
    {
      bodyLimit: ASK_BODY_LIMIT,
      onRequest: [perWidget, perVisitor],
      schema: {
        operationId: 'askWidget',
        tags,
        security,
        summary: 'Ask the widget\'s agent',
        description: 'Answered as POST /v1/answer answers (same agent, knowledge and monthly conversation limit).',
        params: z.strictObject(idParam),
        body: s.widgetAsk,
        response: { 200: s.widgetReply, ...errors, 413: v1ErrorBody.describe('attachment_too_large'), 502: v1ErrorBody.describe('answer_failed') },
      },
    },
    async (request, reply) => {
      const visitor = await resolveVisitor({ db, widgetId: request.widget.id, token: visitorTokenOf(request) });
      checkAttachmentSizes(request.body.attachments ?? [], config.MAX_ANSWER_ATTACHMENT_BYTES);
      return askWidget({
        db,
        generator,
        widget: request.widget,
        visitor,
        input: request.body,
        attachmentReader: app.attachmentReader,
        semanticRanking: app.semanticRanking,
        startedAt: performance.now() - reply.elapsedTime,
        effects: app.effects,
        events: app.events,
      });
    },
  );

  app.post(
    '/v1/widgets/:id/handoff',
    {
      onRequest: [perVisitor],
      schema: {
        operationId: 'handOff',
        tags,
        security,
        summary: 'Hand the conversation to a person (a ticket)',
        description: 'Creates a ticket as POST /v1/tickets does (ticket.created webhook), linked to the conversation; a second request returns the same ticket.',
        params: z.strictObject(idParam),
        body: s.widgetHandoff,
        response: { 201: s.widgetTicket, ...errors },
      },
    },
    async (request, reply) => {
      const visitor = await resolveVisitor({ db, widgetId: request.widget.id, token: visitorTokenOf(request) });
      return reply.status(201).send(await handOff({ db, visitor, input: request.body, effects: app.effects }));
    },
  );

  const conversationParams = z.strictObject({ ...idParam, conversationId: z.string().max(40) });

  app.post(
    '/v1/widgets/:id/conversations/:conversationId/replies/:commentId/seen',
    {
      schema: {
        operationId: 'acknowledgeReply',
        tags,
        security,
        summary: 'The open widget showed the team\'s reply: its mail is held back',
        description:
          'A team\'s public reply is mailed to the customer REPLY_MAIL_DELAY_MS (10 s) after it was written, unless the widget ' +
          'acknowledges it first (the widget does on each `event: reply` of the stream). `mailHeldBack` is false when the mail was ' +
          'already on its way (or none was due: a server without mail).',
        params: conversationParams.extend({ commentId: z.coerce.number().int().min(1).max(2_147_483_647).describe('The reply\'s id (the event\'s `id`).') }),
        response: { 200: z.object({ mailHeldBack: z.boolean() }), ...errors },
      },
    },
    async (request) => {
      const visitor = await resolveVisitor({ db, widgetId: request.widget.id, token: visitorTokenOf(request) });
      return acknowledgeVisitorReply({ db, visitor, conversationId: request.params.conversationId, commentId: request.params.commentId });
    },
  );

  app.post(
    '/v1/widgets/:id/conversations/:conversationId/rating',
    {
      onRequest: [perVisitor],
      schema: {
        operationId: 'rateConversation',
        tags,
        security,
        summary: '"How did we do?": rate the conversation\'s solved ticket (1-5 and a comment), once',
        params: conversationParams,
        body: rs.ratingCreate,
        response: { 201: rs.rating, ...errors, 409: v1ErrorBody.describe('not_solved, or already_rated.') },
      },
    },
    async (request, reply) => {
      const visitor = await resolveVisitor({ db, widgetId: request.widget.id, token: visitorTokenOf(request) });
      return reply.status(201).send(await rateVisitorTicket({ db, visitor, conversationId: request.params.conversationId, input: request.body }));
    },
  );

  // Open event streams, ended as the server starts closing (else its close would wait for them).
  const streams = new Set<() => void>();
  const endAll = async () => {
    for (const end of [...streams]) end();
  };
  app.addHook('preClose', endAll);
  app.addHook('onClose', endAll);

  app.get(
    '/v1/widgets/:id/conversations/:conversationId/events',
    {
      schema: {
        operationId: 'visitorConversationEvents',
        tags,
        security,
        summary: 'The team\'s public replies in the conversation, live (server-sent events)',
        description:
          'Each reply as `event: reply` with the entry as data (acknowledge it: POST …/replies/{id}/seen holds its mail back), and each ' +
          'change of the ticket\'s status as `event: status` (`{"status"}`; solved: ask for a rating), within a second of its commit, ' +
          'whichever server process wrote it (on PostgreSQL). Read it with fetch (it takes the visitor token in Authorization); `: ping` every 20 s.',
        params: z.strictObject({ ...idParam, conversationId: z.string().max(40) }),
        response: { 200: z.string().describe('text/event-stream'), ...errors },
      },
    },
    async (request, reply) => {
      const visitor = await resolveVisitor({ db, widgetId: request.widget.id, token: visitorTokenOf(request) });
      const conversation = await getVisitorConversation({ db, visitor, conversationId: request.params.conversationId });
      const res = reply.raw;
      reply.hijack();
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        'access-control-allow-origin': request.headers.origin!,
        vary: 'origin',
        'x-request-id': request.id,
      });
      res.write('retry: 3000\n\n');
      const ticketId = conversation.ticketId;
      const unsubscribe = ticketId === null
        ? () => undefined
        : app.ticketComments.subscribe(ticketId, (comment) => {
            if (comment.author !== 'team') return;
            const entry = { id: comment.id, from: 'team', body: comment.body, sources: [], needs_human: false, at: comment.createdAt };
            res.write(`id: ${comment.id}\nevent: reply\ndata: ${JSON.stringify(entry)}\n\n`);
          });
      const unsubscribeStatus = ticketId === null
        ? () => undefined
        : app.ticketComments.subscribeStatus(ticketId, (status) => res.write(`event: status\ndata: ${JSON.stringify({ status })}\n\n`));
      const ping = setInterval(() => res.write(': ping\n\n'), 20_000);
      const end = () => {
        clearInterval(ping);
        unsubscribe();
        unsubscribeStatus();
        streams.delete(end);
        res.end();
      };
      streams.add(end);
      res.on('close', end);
    },
  );
};
