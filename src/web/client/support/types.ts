export type WorkspaceRole = 'owner' | 'admin' | 'member';
export interface Workspace {
  id: number;
  name: string;
  role: WorkspaceRole;
  conversationLimit: number | null;
  createdAt: string;
  token?: { prefix: string; createdAt: string } | null;
}
export interface Agent {
  id: string;
  name: string;
  published: boolean;
  default: boolean;
  fallbackMessage: string;
  referralText: string;
  attachmentFallback: 'answer' | 'needs_human';
  createdAt: string;
  updatedAt: string;
}
export interface Article {
  externalId: string;
  title: string;
  body: string;
  url: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface Source {
  externalId: string;
  title: string;
  score: number;
}
export type Confidence = 'high' | 'medium' | 'low';
export interface Turn {
  id: number;
  agentId: string;
  channel: string | null;
  question: string;
  reply: string;
  sources: Source[];
  confidence: Confidence;
  needsHuman: boolean;
  reason?: string | null;
  attachments?: { filename: string | null; mime: string }[];
  latencyMs?: number;
  createdAt: string;
}
export interface Conversation {
  id: string;
  ref: string | null;
  agentId: string;
  /** Every channel its turns came in on, first seen first. */
  channels?: string[];
  needsHuman: boolean;
  turnCount: number;
  createdAt: string;
  updatedAt: string;
  lastTurn?: Turn | null;
  turns?: Turn[];
}
export interface AnswerKey {
  id: number;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
export interface Ticket {
  id: number;
  workspaceId: number;
  subject: string;
  description: string;
  priority: 'low' | 'normal' | 'high' | 'urgent';
  status: 'open' | 'pending' | 'solved' | 'closed';
  requester: { email: string };
  conversationId: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface Endpoint {
  id: number;
  workspaceId: number;
  url: string;
  description?: string | null;
  events: string[] | null;
  enabled: boolean;
  disabledReason: 'manual' | 'gone' | 'failing' | null;
  disabledAt: string | null;
  failingSince: string | null;
  secretRotationEndsAt: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface Attempt {
  id: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  succeeded: boolean;
  /** As sent, but for webhook-signature (not kept). */
  requestHeaders?: Record<string, string>;
}
export interface Delivery {
  id: number;
  endpointId: number;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt: string | null;
  createdAt: string;
  payload: unknown;
  attempts: Attempt[];
}
export interface Stats {
  answers: number;
  needsHuman: number;
  needsHumanShare: number;
  confidence: Record<Confidence, number>;
  latencyMs: { p50: number | null; p90: number | null; p99: number | null };
}
export interface Metrics {
  from: string;
  to: string;
  total: Stats;
  days: (Stats & { day: string })[];
}
export interface Gaps {
  unanswered: number;
  groups: { count: number; terms: string[]; lastAskedAt: string; examples: { question: string; conversationId: string; askedAt: string }[] }[];
}
export interface WorkspaceMember {
  userId: number;
  name: string;
  email: string;
  role: WorkspaceRole;
  active: boolean;
  createdAt: string;
}

/** What the support page hands each of its sections. */
export interface SectionProps {
  workspace: Workspace;
  canManage: boolean;
  base: string;
}
