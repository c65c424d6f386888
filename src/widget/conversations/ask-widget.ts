import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { answerMessage } from '../../answers/conversations/answer-message.js';
import type { Generator } from '../../answers/generators/generator.js';
import type { AttachmentReader } from '../../answers/attachment-reader/reader-pool.js';
import type { SemanticRanking } from '../../answers/retrieval/vectors/semantic-ranking.js';
import type { PrismaClient } from '../../platform/db.js';
import { createTicketComment } from '../../tickets/comments/create-ticket-comment.js';
import type { EventBus } from '../../boards/activity/event-bus.js';
import type { Effects } from '../../platform/after-commit.js';
import { badRequest } from '../../platform/errors.js';
import type { Widget, WidgetVisitor } from '../../generated/prisma/client.js';
import type { WidgetAskInput } from '../schemas.js';
import { articleLinks, findVisitorConversation } from './visitor-conversation.js';

/**
 * A visitor's message, answered by the widget's agent through the same function as POST /v1/answer
 * (its knowledge, its decision, the workspace's monthly conversation limit), in a new conversation
 * or one of the visitor's own. The conversation is the visitor's from its first turn.
 */
export async function askWidget({ db, generator, widget, visitor, input, attachmentReader, semanticRanking, startedAt = performance.now(), events, effects }: {
  db: PrismaClient;
  generator: Generator;
  widget: Widget;
  visitor: WidgetVisitor;
  input: WidgetAskInput;
  attachmentReader?: AttachmentReader | undefined;
  semanticRanking?: SemanticRanking | null | undefined;
  startedAt?: number;
  /** Where the other processes hear of a customer's answer on a ticket, in its transaction (app.events). */
  events: EventBus;
  /** What follows the commit of a customer's answer on a ticket (platform/after-commit.ts). */
  effects: Effects;
}) {
  if (input.attachments?.length && !widget.attachmentsAllowed) throw badRequest('attachments: this widget takes no attachments');
  const existing = input.conversationId ? await findVisitorConversation({ db, visitor, conversationId: input.conversationId }) : null;
  // Once handed to a person, the visitor's messages are answers on the ticket (which they reopen), not questions to the agent.
  const ticket = existing ? await db.ticket.findFirst({ where: { conversationId: existing.conversationId, workspaceId: widget.workspaceId }, orderBy: { id: 'asc' }, select: { id: true } }) : null;
  if (existing && ticket) {
    if (input.attachments?.length) throw badRequest('attachments: the team reads text replies only; describe the file or send it by mail');
    await createTicketComment({ db, workspaceId: widget.workspaceId, ticketId: String(ticket.id), input: { body: input.message, public: true }, author: 'requester', events, effects, mail: null });
    return { conversationId: existing.conversationId, message: '', sources: [], needs_human: true, forwarded: true };
  }
  // A new conversation gets a ref of its own, so that answerMessage continues it on the next message.
  const ref = existing?.conversation.ref ?? `widget:${randomBytes(16).toString('base64url')}`;
  const answer = await answerMessage({
    db,
    generator,
    workspaceId: widget.workspaceId,
    request: { message: input.message, conversationRef: ref, agentId: existing ? undefined : widget.agentId, channel: 'widget', attachments: input.attachments },
    attachmentReader,
    semanticRanking,
    startedAt,
  });
  if (!existing) {
    await db.widgetConversation.create({ data: { conversationId: answer.conversationId, widgetId: widget.id, visitorId: visitor.id, userId: visitor.userId } });
  }
  return {
    conversationId: answer.conversationId,
    message: answer.message,
    sources: await articleLinks(db, widget.workspaceId, answer.sources),
    needs_human: answer.needs_human,
    forwarded: false,
  };
}
