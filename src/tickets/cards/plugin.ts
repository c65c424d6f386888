import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { EffectRunners } from '../../platform/after-commit.js';
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
 * The process's TicketCards, and the two ways a board or a reply reaches it after its commit:
 * committed card moves (the 'ticketFollowsCard' effect, ticketCardsEffect) and committed public ticket
 * comments (the ticket-comment hub). Both run once, in the process that made the change.
 */
export const ticketCardsPlugin = fp(
  async (app) => {
    const cards = new TicketCards({ db: app.db.prisma, events: app.events, effects: app.effects, log: app.log, hub: app.ticketComments });
    app.decorate('ticketCards', cards);
    const stopComments = app.ticketComments.subscribeAll((comment) => void cards.commentPublished(comment));
    app.addHook('onClose', async () => {
      stopComments();
    });
  },
  { name: 'ticket-cards', dependencies: ['db', 'event-bus', 'after-commit', 'ticket-comments'] },
);
