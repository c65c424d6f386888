/**
 * What the support console receives, taken from the server's response schemas (`import type`,
 * erased by esbuild, as in ../types.ts). The few shapes a route declares inline, without a schema
 * to import, are written out below and say where they come from.
 */
import type { z } from 'zod';
import type { confidence, source, tryAnswerResponse } from '../../../answers/schemas.js';
import type { agent, answerKey, article, confirmedAnswer, conversation, conversationSummary, feedbackResult, gaps, knowledgeStatus, learning, metrics, turn } from '../../../answers/web-schemas.js';
import type { ticket } from '../../../tickets/schemas.js';
import type { ticketComment } from '../../../tickets/comments/schemas.js';
import type { supportMetrics } from '../../../tickets/replies/schemas.js';
import type { WEBHOOK_EVENT_TYPES } from '../../../webhooks/event-types.js';
import type { createdWidget, widget } from '../../../widget/schemas.js';
import type { attempt, delivery, endpoint } from '../../../webhooks/schemas.js';
import type { workspace, workspaceRole } from '../../../workspaces/schemas.js';

export type WorkspaceRole = z.output<typeof workspaceRole>;
export type Workspace = z.output<typeof workspace>;
/**
 * GET /agent/workspaces/{id}: the workspace and its token's prefix. The route extends the
 * workspace schema inline (src/workspaces/routes.ts), so this part is written out here.
 */
export type WorkspaceDetail = Workspace & { token: { prefix: string; createdAt: string } | null };
/** GET /agent/workspaces/{id}/members: a schema the route declares inline (src/workspaces/routes.ts). */
export interface WorkspaceMember {
  userId: number;
  name: string;
  email: string;
  role: WorkspaceRole;
  active: boolean;
  createdAt: string;
}

export type Agent = z.output<typeof agent>;
export type Article = z.output<typeof article>;
export type KnowledgeStatus = z.output<typeof knowledgeStatus>;
export type Source = z.output<typeof source>;
export type Confidence = z.output<typeof confidence>;
/** The answer API's reply (POST /v1/answer, and "Try the agent"). */
export type Answer = z.output<typeof tryAnswerResponse>;
export type Turn = z.output<typeof turn>;
/** A conversation as lists show it: its last turn, not all of them. */
export type ConversationSummary = z.output<typeof conversationSummary>;
/** One conversation with all its turns. */
export type Conversation = z.output<typeof conversation>;
export type AnswerKey = z.output<typeof answerKey>;
/** PUT …/turns/{id}/feedback: the verdict saved and what the agent learns from. */
export type FeedbackResult = z.output<typeof feedbackResult>;
export type Learning = z.output<typeof learning>;
export type ConfirmedAnswer = z.output<typeof confirmedAnswer>;
export type Ticket = z.output<typeof ticket>;
export type Widget = z.output<typeof widget>;
/** A new widget, with its identity secret (shown once). */
export type CreatedWidget = z.output<typeof createdWidget>;
export type TicketComment = z.output<typeof ticketComment>;
/** GET …/support-metrics: resolved alone versus with a person, and satisfaction. */
export type SupportMetrics = z.output<typeof supportMetrics>;
export type Endpoint = z.output<typeof endpoint>;
export type Attempt = z.output<typeof attempt>;
export type Delivery = z.output<typeof delivery>;
/** The event types an endpoint may subscribe to, in the server's order. */
export type WebhookEventTypes = typeof WEBHOOK_EVENT_TYPES;
export type Metrics = z.output<typeof metrics>;
export type Stats = Metrics['total'];
export type Gaps = z.output<typeof gaps>;

/** What the support page hands each of its sections. */
export interface SectionProps {
  workspace: Workspace;
  canManage: boolean;
  base: string;
}
