import type { TicketView } from './schemas.js';

/**
 * What follows a ticket's change once it has committed, besides its webhooks (changeWithOutbox
 * wakes those): the ticket's card (tickets as cards, ./cards/ticket-cards.ts). Required by
 * createTicket and updateTicket, so no caller can forget it; each follow-up logs its own failure
 * and never fails the ticket's change.
 */
export interface TicketFollowUps {
  ticketCreated(ticket: TicketView): Promise<void>;
  ticketChanged(ticket: TicketView): Promise<void>;
}
