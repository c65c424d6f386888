import { performance } from 'node:perf_hooks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { v1ErrorBody } from '../../platform/openapi.js';
import { answerMessage } from '../conversations/answer-message.js';
import { answerKeyAuthentication } from '../gate.js';
import type { Generator } from '../generators/generator.js';
import { checkAttachmentSizes } from '../read-attachments.js';
import { loadEnglish } from '../retrieval/english.js';
import { answerRequest, answerResponse } from '../schemas.js';

/** Attachments travel inside the JSON: 5 × 15 MiB decoded is about 100 MiB of base64. */
const ANSWER_BODY_LIMIT = 100 * 1024 * 1024;

/** POST /v1/answer. */
export const answerRoutes: FastifyPluginAsyncZod<{ config: Config; generator: Generator }> = async (app, { config, generator }) => {
  // The decision reads WordNet's index files: once per process, at start rather than in the first answer.
  loadEnglish();
  app.addHook('onRequest', answerKeyAuthentication);

  app.post(
    '/v1/answer',
    {
      bodyLimit: ANSWER_BODY_LIMIT,
      schema: {
        operationId: 'answer',
        tags: ['answer'],
        summary: 'Answer a user\'s message from the workspace\'s knowledge',
        description:
          'The agent answers from the knowledge base, cites the articles it used and says when a human is needed. ' +
          'It never escalates, creates tickets or notifies anyone: `needs_human` is a signal and the client decides. ' +
          'Every call is stored as a turn of a conversation (attachments by name and type only). ' +
          'The same message can get another reply once the knowledge has changed: store the replies you need.',
        security: [{ answerKey: [] }],
        body: answerRequest,
        response: {
          200: answerResponse,
          400: v1ErrorBody.describe('invalid_request: the message names the field at fault.'),
          401: v1ErrorBody.describe('invalid_api_key'),
          404: v1ErrorBody.describe('agent_not_found: no published agent, or agentId is not one of the workspace\'s.'),
          413: v1ErrorBody.describe('attachment_too_large (or the body is over 100 MiB).'),
          415: v1ErrorBody.describe('Send Content-Type: application/json.'),
          429: v1ErrorBody.describe('conversation_limit_reached: the workspace\'s monthly limit of new conversations.'),
          502: v1ErrorBody.describe('answer_failed: the AI service could not answer after retries; retry with backoff.'),
          503: v1ErrorBody.describe('unavailable: retry after Retry-After seconds.'),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      checkAttachmentSizes(body.attachments ?? [], config.MAX_ANSWER_ATTACHMENT_BYTES);
      return answerMessage({
        db: app.db.prisma,
        generator,
        workspaceId: request.answerKey.workspaceId,
        request: body,
        attachmentReader: app.attachmentReader,
        semanticRanking: app.semanticRanking,
        startedAt: performance.now() - reply.elapsedTime,
      });
    },
  );
};
