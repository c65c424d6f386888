import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../platform/errors.js';
import { errorBody } from '../../platform/openapi.js';
import { answerMetrics } from '../conversations/answer-metrics.js';
import { knowledgeGaps } from '../conversations/knowledge-gaps.js';
import { getConversation, listConversations } from '../conversations/list-conversations.js';
import { listConfirmedAnswers } from '../learning/list-confirmed-answers.js';
import { giveFeedback, learningStatus, removeFeedback } from '../learning/turn-feedback.js';
import { presentConfirmedAnswer, presentConversation, presentConversationSummary } from '../presenters.js';
import { confidence } from '../schemas.js';
import { id, limitQueryString } from '../../platform/schemas.js';
import * as v from '../web-schemas.js';
import { consoleWorkspace, workspaceParam } from '../../workspaces/console-context.js';

const tags = ['support console'];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
const DAY = 86_400_000;
/** Ranges longer than this are refused: metrics are read per page view. */
const MAX_RANGE_DAYS = 366;

function range(query: { from?: string | undefined; to?: string | undefined }) {
  const to = query.to ? new Date(query.to) : new Date();
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - 30 * DAY);
  if (from >= to) throw badRequest('querystring.from: must be before to');
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY) throw badRequest(`querystring.from: the range may span at most ${MAX_RANGE_DAYS} days`);
  return { from, to };
}

/** Conversations, metrics and knowledge gaps of a workspace (session; every member reads them). */
export const insightRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.prisma;

  app.get(
    '/agent/workspaces/:workspaceId/conversations',
    {
      schema: {
        tags,
        summary: 'List conversations, most recently active first',
        params: z.strictObject(workspaceParam),
        querystring: z.strictObject({
          agentId: z.string().max(100).optional(),
          channel: z.string().max(100).optional().describe('Conversations with a turn on this channel.'),
          needsHuman: z.enum(['true', 'false']).optional().transform((x) => (x === undefined ? undefined : x === 'true')),
          confidence: confidence.optional().describe('Conversations with a turn of this confidence.'),
          ...v.rangeQuery,
          limit: limitQueryString(100, 20).describe('1-100, default 20.'),
          cursor: z.string().max(40).optional().describe('nextCursor of the previous page.'),
        }),
        response: { 200: z.object({ conversations: z.array(v.conversationSummary), nextCursor: z.string().nullable() }), ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      const { limit, cursor, from, to, ...rest } = request.query;
      const page = await listConversations({
        db,
        filter: { workspaceId: workspace.id, ...rest, from: from ? new Date(from) : undefined, to: to ? new Date(to) : undefined },
        limit,
        cursor,
      });
      return { conversations: page.conversations.map(presentConversationSummary), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/agent/workspaces/:workspaceId/conversations/:conversationId',
    {
      schema: {
        tags,
        summary: 'A conversation with its turns and the sources each cited',
        params: z.strictObject({ ...workspaceParam, conversationId: z.string().max(40) }),
        response: { 200: v.conversation, ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      return presentConversation(await getConversation({ db, workspaceId: workspace.id, conversationId: request.params.conversationId }));
    },
  );

  const turnParams = z.strictObject({
    ...workspaceParam,
    conversationId: z.string().max(40),
    turnId: z.preprocess((x) => (typeof x === 'string' && /^\d+$/.test(x) ? Number(x) : x), id('Turn')),
  });

  app.put(
    '/agent/workspaces/:workspaceId/conversations/:conversationId/turns/:turnId/feedback',
    {
      schema: {
        tags,
        summary: 'Give a verdict on an answer: right, wrong (naming the right article), it should have gone to a person, or (a hand-off) it should have answered',
        description:
          'Any member of the workspace may give one (it replaces an earlier verdict on the turn). The agent learns from them: ' +
          'the message becomes a searchable phrasing of the article it was confirmed for (the cited one when right, the named one when wrong) ' +
          'from the next answer on, and from `labelsNeeded` verdicts on, the workspace\'s needs_human decision is refitted on them, ' +
          'shrunk toward the global model (thresholds unchanged). Verdicts on turns handed over for a request for a person or an unreadable file ' +
          'teach the decision nothing, nor does a `wrong` verdict whose named article does not rank first for the message with the knowledge as it is ' +
          'now (it only adds the phrasing): the response says so in `counts` and `why`. `should_answer` is for a hand-off whose first source was right.',
        params: turnParams,
        body: v.feedbackBody,
        response: { 200: v.feedbackResult, ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'review');
      const { conversationId, turnId } = request.params;
      const result = await giveFeedback({
        db,
        workspaceId: workspace.id,
        conversationId,
        turnId,
        userId: request.actor.userId,
        verdict: request.body.verdict,
        articleExternalId: request.body.articleId,
      });
      const { articleExternalId, ...rest } = result;
      return { ...rest, articleId: articleExternalId };
    },
  );

  app.delete(
    '/agent/workspaces/:workspaceId/conversations/:conversationId/turns/:turnId/feedback',
    {
      schema: { tags, summary: 'Take back the verdict on an answer (the decision is refitted without it)', params: turnParams, response: { 204: z.null().describe('Removed.'), ...errors } },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'review');
      await removeFeedback({ db, workspaceId: workspace.id, conversationId: request.params.conversationId, turnId: request.params.turnId });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/agent/workspaces/:workspaceId/confirmed-answers',
    {
      schema: {
        tags,
        summary: 'Confirmed answers: messages staff said an article answers (or that go to a person), used at once for the same message or one with nearly the same words',
        description:
          'A verdict naming the article for a turn (`right` on an answer, `should_answer`, `wrong` with the article) makes the message a confirmed answer; ' +
          '`needs_human` makes it a confirmed hand-off. The latest 2,000 of the workspace, latest first. An article deleted since drops its confirmations; ' +
          'one edited since is re-checked (`status`).',
        params: z.strictObject(workspaceParam),
        querystring: z.strictObject({ agentId: z.string().max(100).optional().describe('Only this agent\'s.') }),
        response: { 200: z.object({ confirmedAnswers: z.array(v.confirmedAnswer) }), ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      const list = await listConfirmedAnswers({ db, workspaceId: workspace.id, agentId: request.query.agentId });
      return { confirmedAnswers: list.map(presentConfirmedAnswer) };
    },
  );

  app.delete(
    '/agent/workspaces/:workspaceId/confirmed-answers/:turnId',
    {
      schema: {
        tags,
        summary: 'Remove a confirmed answer: its verdict is taken back (as DELETE …/turns/{turnId}/feedback)',
        params: z.strictObject({ ...workspaceParam, turnId: turnParams.shape.turnId }),
        response: { 204: z.null().describe('Removed.'), ...errors },
      },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'review');
      await removeFeedback({ db, workspaceId: workspace.id, turnId: request.params.turnId });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/agent/workspaces/:workspaceId/learning',
    {
      schema: { tags, summary: 'How far the agent has learnt from the staff\'s verdicts', params: z.strictObject(workspaceParam), response: { 200: v.learning, ...errors } },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      return learningStatus({ db, workspaceId: workspace.id });
    },
  );

  app.get(
    '/agent/workspaces/:workspaceId/metrics',
    {
      schema: {
        tags,
        summary: 'Answers per day, share needing a human, confidence mix, latency percentiles',
        params: z.strictObject(workspaceParam),
        querystring: z.strictObject({ ...v.rangeQuery, agentId: z.string().max(100).optional(), channel: z.string().max(100).optional() }),
        response: { 200: v.metrics, ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      const { from, to } = range(request.query);
      return answerMetrics({ db, filter: { workspaceId: workspace.id, from, to, agentId: request.query.agentId, channel: request.query.channel } });
    },
  );

  app.get(
    '/agent/workspaces/:workspaceId/knowledge-gaps',
    {
      schema: {
        tags,
        summary: 'Questions the knowledge did not answer, grouped by similarity, biggest group first',
        params: z.strictObject(workspaceParam),
        querystring: z.strictObject({ ...v.rangeQuery, limit: limitQueryString(100, 20).describe('Groups, 1-100, default 20.') }),
        response: { 200: v.gaps, ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      const { from, to } = range(request.query);
      return knowledgeGaps({ db, workspaceId: workspace.id, from, to, limit: request.query.limit });
    },
  );
};
