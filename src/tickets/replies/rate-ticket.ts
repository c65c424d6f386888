import type { DbClient } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';

/**
 * "How did we do?": the customer's rating of a solved (or closed) ticket, once per ticket (the
 * table's key): from the widget or the reply page. A second one is 409 already_rated; a ticket
 * not yet solved is 409 not_solved.
 */
export async function rateTicket({ db, ticket, input }: {
  db: DbClient;
  ticket: { id: number; workspaceId: number; status: string };
  input: { score: number; comment?: string | undefined };
}) {
  if (ticket.status !== 'solved' && ticket.status !== 'closed') throw new AppError(409, 'not_solved', 'status: the ticket is not solved yet; rate it once the team has solved it');
  const { count } = await db.ticketRating.createMany({
    data: [{ ticketId: ticket.id, workspaceId: ticket.workspaceId, score: input.score, comment: input.comment?.trim() ?? '' }],
    skipDuplicates: true,
  });
  if (count === 0) throw new AppError(409, 'already_rated', 'this ticket was rated already: thank you');
  return { ticketId: ticket.id, score: input.score, comment: input.comment?.trim() ?? '' };
}
