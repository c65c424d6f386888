import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../platform/openapi.js';
import { id } from '../../platform/schemas.js';
import { createAgent } from '../agents/create-agent.js';
import { listAgents } from '../agents/list-agents.js';
import { updateAgent } from '../agents/update-agent.js';
import { createAnswerKey } from '../keys/create-answer-key.js';
import { listAnswerKeys } from '../keys/list-answer-keys.js';
import { revokeAnswerKey } from '../keys/revoke-answer-key.js';
import { presentAgent, presentAnswerKey } from '../presenters.js';
import * as v from '../web-schemas.js';
import { consoleWorkspace, workspaceParam } from '../../workspaces/console-context.js';

const tags = ['support console'];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** Agents and answer-API keys of a workspace (session; owners and admins change them). */
export const agentRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.prisma;

  app.get(
    '/agent/workspaces/:workspaceId/agents',
    { schema: { tags, summary: 'List the workspace\'s agents', params: z.strictObject(workspaceParam), response: { 200: z.object({ agents: z.array(v.agent) }), ...errors } } },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      return { agents: (await listAgents({ db, workspaceId: workspace.id })).map(presentAgent) };
    },
  );

  app.post(
    '/agent/workspaces/:workspaceId/agents',
    { schema: { tags, summary: 'Create an agent', params: z.strictObject(workspaceParam), body: v.agentCreate, response: { 201: v.agent, ...errors } } },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const { default: isDefault, ...rest } = request.body;
      const agent = await createAgent({ db, workspaceId: workspace.id, input: { ...rest, isDefault } });
      return reply.status(201).send(presentAgent(agent));
    },
  );

  app.patch(
    '/agent/workspaces/:workspaceId/agents/:agentId',
    {
      schema: {
        tags,
        summary: 'Change an agent',
        params: z.strictObject({ ...workspaceParam, agentId: z.string().max(100) }),
        body: v.agentUpdate,
        response: { 200: v.agent, ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const { default: isDefault, ...rest } = request.body;
      return presentAgent(await updateAgent({ db, workspaceId: workspace.id, agentId: request.params.agentId, changes: { ...rest, isDefault } }));
    },
  );

  app.get(
    '/agent/workspaces/:workspaceId/answer-keys',
    {
      schema: { tags, summary: 'List the answer-API keys (revoked included)', params: z.strictObject(workspaceParam), response: { 200: z.object({ keys: z.array(v.answerKey) }), ...errors } },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      return { keys: (await listAnswerKeys({ db, workspaceId: workspace.id })).map(presentAnswerKey) };
    },
  );

  app.post(
    '/agent/workspaces/:workspaceId/answer-keys',
    {
      schema: {
        tags,
        summary: 'Create an answer-API key; the token is in this response only',
        params: z.strictObject(workspaceParam),
        body: z.strictObject({ name: z.string().describe('1-60 characters.') }),
        response: { 201: z.object({ key: v.answerKey, token: z.string().describe('The full token (ans_…): shown once.') }), ...errors },
      },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const { key, token } = await createAnswerKey({ db, workspaceId: workspace.id, name: request.body.name });
      return reply.status(201).send({ key: presentAnswerKey(key), token });
    },
  );

  app.delete(
    '/agent/workspaces/:workspaceId/answer-keys/:keyId',
    {
      schema: {
        tags,
        summary: 'Revoke an answer-API key (it stops at once)',
        params: z.strictObject({ ...workspaceParam, keyId: z.preprocess((x) => (typeof x === 'string' && /^\d+$/.test(x) ? Number(x) : x), id('Key')) }),
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      await revokeAnswerKey({ db, workspaceId: workspace.id, keyId: request.params.keyId });
      return reply.status(204).send(null);
    },
  );
};
