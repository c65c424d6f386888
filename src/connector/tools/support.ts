import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { getArticle } from '../../answers/knowledge/get-article.js';
import { presentArticle } from '../../answers/presenters.js';
import { answerMessage } from '../../answers/conversations/answer-message.js';
import { answerRequest } from '../../answers/schemas.js';
import { id, text } from '../../platform/schemas.js';
import { createTicket } from '../../tickets/create-ticket.js';
import { getTicket } from '../../tickets/get-ticket.js';
import { listTickets } from '../../tickets/list-tickets.js';
import { ticketCreate } from '../../tickets/schemas.js';
import { workspaceForUser } from '../../workspaces/access.js';
import { listWorkspaces } from '../../workspaces/list-workspaces.js';
import { presentWorkspace } from '../../workspaces/presenters.js';
import { searchKnowledge } from '../../answers/knowledge/search-knowledge.js';
import { limit } from './boards.js';
import { tool, type ToolContext } from './tool.js';

/** The channel the connector's questions are recorded on, so metrics can tell them apart. */
export const ASSISTANT_CHANNEL = 'assistant';

const workspaceId = id('Workspace');
const member = (ctx: ToolContext, id: number) => workspaceForUser({ db: ctx.db, userId: ctx.actor.userId, workspaceId: id, action: 'read' });

/** Knowledge, the answer agent and tickets of the workspaces the user is a member of. */
export const supportTools = [
  tool({
    name: 'list_workspaces',
    title: 'List support workspaces',
    description: 'The support workspaces you are a member of, with your role: their ids are what the knowledge and ticket tools take.',
    access: 'read',
    input: {},
    async run(ctx) {
      return { workspaces: (await listWorkspaces({ db: ctx.db, userId: ctx.actor.userId })).map(presentWorkspace) };
    },
  }),
  tool({
    name: 'search_knowledge',
    title: 'Search the knowledge base',
    description:
      "Search a workspace's knowledge articles with the answer agent's own ranking (stemming, typo correction, synonyms), best first, " +
      'each with its best matching passage. Fetch a whole article with get_article.',
    access: 'read',
    input: {
      workspaceId,
      q: text().trim().min(1, { message: 'must be 1-1000 characters' }).max(1000, { message: 'must be 1-1000 characters' }).describe('What to look for, in plain words.'),
      limit: limit(5, 20),
    },
    async run(ctx, args) {
      return searchKnowledge({ db: ctx.db, userId: ctx.actor.userId, ...args });
    },
  }),
  tool({
    name: 'get_article',
    title: 'Fetch a knowledge article',
    description: 'One article of the workspace by its externalId (as the support console shows it).',
    access: 'read',
    input: { workspaceId, externalId: z.string({ message: 'must be an externalId' }).min(1, { message: 'must be an externalId' }).max(200, { message: 'must be an externalId' }) },
    async run(ctx, { workspaceId: wid, externalId }) {
      const workspace = await member(ctx, wid);
      return presentArticle(await getArticle({ db: ctx.db, workspaceId: workspace.id, externalId }));
    },
  }),
  tool({
    name: 'ask_agent',
    title: "Ask the workspace's answer agent",
    description:
      "The answer API's reply to a message (as POST /v1/answer): the agent's answer from the knowledge, its sources, needs_human and confidence. " +
      'Recorded as a conversation on the channel "assistant" (it counts toward the workspace\'s conversation limit); pass the same conversationRef to continue one.',
    access: 'write',
    input: { workspaceId, ...answerRequest.pick({ message: true, conversationRef: true, agentId: true }).shape },
    async run(ctx, { workspaceId: wid, ...request }) {
      const workspace = await member(ctx, wid);
      return answerMessage({ db: ctx.db, generator: ctx.generator, semanticRanking: ctx.semanticRanking, workspaceId: workspace.id, request: { ...request, channel: ASSISTANT_CHANNEL }, startedAt: performance.now() });
    },
  }),
  tool({
    name: 'create_ticket',
    title: 'File a ticket',
    description:
      'A new ticket in a workspace you are a member of (as POST /v1/tickets): it sends the workspace\'s ticket.created webhooks. ' +
      'requester defaults to you; conversationId links an answer conversation (from ask_agent) as context.',
    access: 'write',
    input: {
      workspaceId,
      ...ticketCreate.shape,
      requester: ticketCreate.shape.requester.optional().describe('Who asked; default: you.'),
    },
    async run(ctx, { workspaceId: wid, requester, ...input }) {
      const workspace = await member(ctx, wid);
      const created = await createTicket({ db: ctx.db, workspaceId: workspace.id, input: { ...input, requester: requester ?? { email: ctx.actor.email } }, effects: ctx.effects });
      return created.ticket;
    },
  }),
  tool({
    name: 'list_tickets',
    title: 'List tickets',
    description: "The workspace's tickets, newest first (as GET /v1/tickets); pass nextCursor back as cursor for the next page.",
    access: 'read',
    input: { workspaceId, limit: limit(20, 100), cursor: z.string().max(100, { message: 'malformed; pass nextCursor from the previous page' }).optional() },
    async run(ctx, { workspaceId: wid, limit: size, cursor }) {
      const workspace = await member(ctx, wid);
      return listTickets({ db: ctx.db, workspaceId: workspace.id, limit: size, cursor });
    },
  }),
  tool({
    name: 'get_ticket',
    title: 'Fetch a ticket',
    description: 'One ticket of the workspace (as GET /v1/tickets/{id}).',
    access: 'read',
    input: { workspaceId, ticketId: id('Ticket') },
    async run(ctx, { workspaceId: wid, ticketId }) {
      const workspace = await member(ctx, wid);
      return getTicket({ db: ctx.db, workspaceId: workspace.id, id: String(ticketId) });
    },
  }),
];
