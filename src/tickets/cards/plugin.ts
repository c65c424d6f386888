import fp from 'fastify-plugin';
import { TicketCards } from './ticket-cards.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Tickets as cards: what follows a ticket's change on its card, and a card's on its ticket. */
    ticketCards: TicketCards;
  }
}

/**
 * The process's TicketCards, and the two ways a board or a reply reaches it after its commit:
 * committed card moves (the boards' EventBus.onCommitted, the hook for follow-ups of board
 * changes) and committed public ticket comments (the ticket-comment hub). Both hooks run once,
 * in the process that made the change.
 */
export const ticketCardsPlugin = fp(
  async (app) => {
    const cards = new TicketCards({ db: app.db.prisma, events: app.events, outbox: app.webhooks, log: app.log, hub: app.ticketComments });
    app.decorate('ticketCards', cards);
    // Only moves between lists can concern a ticket; the follow-up starts on the next turn of the event
    // loop, after the move's own response has gone (on the embedded database its queries hold the loop).
    const stopMoves = app.events.onCommitted((activity) => {
      if (activity.type !== 'card.moved' || activity.data.from.listId === activity.data.to.listId) return;
      setImmediate(() => void cards.cardMoved(activity).catch((err: unknown) => app.log.warn({ err }, 'tickets as cards: a card move failed to reach its ticket')));
    });
    const stopComments = app.ticketComments.subscribeAll((comment) => void cards.commentPublished(comment));
    app.addHook('onClose', async () => {
      stopMoves();
      stopComments();
    });
  },
  { name: 'ticket-cards', dependencies: ['db', 'event-bus', 'webhooks', 'ticket-comments'] },
);
