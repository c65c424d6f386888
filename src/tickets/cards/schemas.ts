import { z } from 'zod';
import { id } from '../../platform/schemas.js';
import { ticket } from '../schemas.js';
import { ticketCommentCreate } from '../comments/schemas.js';

export const ticketsBoard = z
  .object({
    boardId: z.number().int().nullable().describe('The board new tickets go to as cards; null: none.'),
    listId: z.number().int().nullable().describe('The list each new ticket\'s card is put in.'),
    solvedListId: z.number().int().nullable().describe('A card moved here solves its ticket; a ticket solved elsewhere moves its card here. Null: none.'),
  })
  .meta({ id: 'TicketsBoard', description: 'Where a workspace\'s tickets go as cards.' });

export const ticketsBoardSet = z
  .strictObject({
    boardId: id('Board').describe('A board a member of the workspace can write (member or admin).'),
    listId: id('List').describe('A list of that board: every new ticket becomes a card here.'),
    solvedListId: id('List').nullable().optional().describe('Another list of that board: the solved tickets\' cards.'),
  })
  .meta({ id: 'TicketsBoardSet', description: 'Send the workspace\'s tickets to a board, as cards.' });

export const cardTicket = z
  .object({ ticket: ticket.nullable().describe('The ticket this card shows; null: an ordinary card.') })
  .meta({ id: 'CardTicket', description: 'The ticket behind a card, if any.' });

export const cardReply = ticketCommentCreate.pick({ body: true }).meta({ id: 'CardTicketReply', description: 'A reply to the customer, from the ticket\'s card.' });
