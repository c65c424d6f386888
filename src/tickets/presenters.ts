import type { TicketView } from './schemas.js';

export function presentTicket(t: {
  id: number;
  workspaceId: number;
  subject: string;
  description: string;
  priority: TicketView['priority'];
  status: TicketView['status'];
  requesterEmail: string;
  conversationId: string | null;
  createdAt: Date;
  updatedAt: Date;
}): TicketView {
  return {
    id: t.id,
    workspaceId: t.workspaceId,
    subject: t.subject,
    description: t.description,
    priority: t.priority,
    status: t.status,
    requester: { email: t.requesterEmail },
    conversationId: t.conversationId,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}
