import { performance } from 'node:perf_hooks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { errorBody } from '../../platform/openapi.js';
import { answerMessage } from '../conversations/answer-message.js';
import type { Generator } from '../generators/generator.js';
import { checkAttachmentSizes } from '../read-attachments.js';
import { answerRequest, tryAnswerResponse } from '../schemas.js';
import { consoleWorkspace, workspaceParam } from '../../workspaces/console-context.js';
import { z } from 'zod';

/** The same ceiling as /v1/answer: attachments travel as base64 inside the JSON. */
const TRY_BODY_LIMIT = 100 * 1024 * 1024;
export const CONSOLE_CHANNEL = 'console';

/**
 * "Try the agent" in the support console: the answer API's own logic for a signed-in member,
 * recorded like any call on the channel `console` (so metrics can leave it out).
 */
export const tryRoutes: FastifyPluginAsyncZod<{ config: Config; generator: Generator }> = async (app, { config, generator }) => {

  app.post(
    '/agent/workspaces/:workspaceId/try',
    {
      bodyLimit: TRY_BODY_LIMIT,
      schema: {
        tags: ['support console'],
        summary: 'Ask the agent as POST /v1/answer would (channel "console"); any member may',
        params: z.strictObject(workspaceParam),
        body: answerRequest.omit({ channel: true }),
        response: { 200: tryAnswerResponse, 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 413: errorBody, 429: errorBody, 502: errorBody },
      },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'read');
      checkAttachmentSizes(request.body.attachments ?? [], config.MAX_ANSWER_ATTACHMENT_BYTES);
      return answerMessage({
        db: app.db.prisma,
        generator,
        workspaceId: workspace.id,
        request: { ...request.body, channel: CONSOLE_CHANNEL },
        attachmentReader: app.attachmentReader,
        semanticRanking: app.semanticRanking,
        startedAt: performance.now() - reply.elapsedTime,
      });
    },
  );
};
