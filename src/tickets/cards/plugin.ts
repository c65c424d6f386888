import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { EffectRunners } from '../../platform/after-commit.js';
import { TICKET_TOPICS } from '../ticket-changes.js';
import { TicketCards } from './ticket-cards.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Tickets as cards: what follows a ticket's change on its card, and a card's on its ticket. */
    ticketCards: TicketCards;
  }
}

/**
 * The 'ticketFollowsCard' effect (platform/after-commit.ts): a card this process moved between lists
 * reaches its ticket, if it is a ticket's. Only moves between lists can concern a ticket; the
 * follow-up starts on the next turn of the event loop, after the move's own response has gone (on
 * the embedded database its queries hold the loop).
 */
export function ticketCardsEffect(app: FastifyInstance): EffectRunners['ticketFollowsCard'] {
  return ({ activity }) => {
    if (activity.type !== 'card.moved' || activity.data.from.listId === activity.data.to.listId) return;
    setImmediate(() => void app.ticketCards.cardMoved(activity).catch((err: unknown) => app.log.warn({ err }, 'tickets as cards: a card move failed to reach its ticket')));
  };
}

/**
 * The 'cardFollowsTicket' effect (platform/after-commit.ts): a ticket this process created, changed
 * or publicly commented reaches its card, once, in this process (the others only show it to their
 * widgets). Its promise is the card's: createTicket and updateTicket answer once it is done; a reply
 * does not wait for its copy on the card. Each follow-up logs its own failure.
 */
export function cardFollowsTicketEffect(app: FastifyInstance): EffectRunners['cardFollowsTicket'] {
  return (change) => {
    switch (change.kind) {
      case 'ticket.created':
        return app.ticketCards.ticketCreated(change.ticket);
      case 'ticket.updated':
        return app.ticketCards.ticketChanged(change.ticket);
      case 'ticket.commented':
        return app.ticketCards.commentPublished(change.comment);
    }
  };
}

/** The process's TicketCards, which the two effects above reach after a commit. */
export const ticketCardsPlugin = fp(
  async (app) => {
    const cards = new TicketCards({ db: app.db.prisma, events: app.events, effects: app.effects, log: app.log });
    app.decorate('ticketCards', cards);
    // Another process set a workspace's tickets board: its solved list may be new.
    const stop = app.events.onAnnounced(TICKET_TOPICS.board, () => cards.forgetSolvedLists());
    app.addHook('onClose', async () => stop());
  },
  { name: 'ticket-cards', dependencies: ['db', 'event-bus', 'after-commit'] },
);
