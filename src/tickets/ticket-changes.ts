import type { TicketCommentView } from './comments/schemas.js';
import type { TicketView } from './schemas.js';

declare module '../platform/after-commit.js' {
  interface ChangeData {
    /** A new ticket committed (a replayed request is none): its card follows. */
    'ticket.created': { ticket: TicketView };
    /** A ticket's status or priority changed: its card follows; a new status goes to its open widgets. */
    'ticket.updated': { ticket: TicketView; statusChanged: boolean };
    /**
     * A public comment on a ticket committed (the team's reply or the customer's answer; an internal
     * note has no effect but its webhook): it goes to the ticket's open widgets and onto its card.
     */
    'ticket.commented': { comment: TicketCommentView };
    /**
     * A workspace's tickets board or its solved list was set or cleared: this process forgets the
     * lists it knew to solve tickets (TicketCards.forgetSolvedLists); the others were told in the
     * change's transaction (TICKET_TOPICS.board).
     */
    'tickets.board': { workspaceId: number };
  }
}

/**
 * What a ticket's change tells the other processes, in its own transaction, on the boards' event
 * channel (EventBus.announceInTransaction): their open widgets show it. Ids only; the receiver
 * reads the comment itself (comments/plugin.ts).
 */
export const TICKET_TOPICS = {
  /** `{ commentId, ticketId }`: a public comment. */
  comment: 'ticket.comment',
  /** `{ ticketId, status }`: a new status. */
  status: 'ticket.status',
  /** `{ workspaceId }`: a workspace's tickets board or solved list changed. */
  board: 'tickets.board',
} as const;
