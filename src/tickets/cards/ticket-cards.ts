import type { Actor } from '../../accounts/credentials/auth.js';
import { requireCard } from '../../boards/access.js';
import type { ActivityView } from '../../boards/activity/present-activity.js';
import type { EventBus } from '../../boards/activity/event-bus.js';
import { createCard } from '../../boards/cards/create-card.js';
import { moveCard } from '../../boards/cards/move-card.js';
import { createComment } from '../../boards/comments/create-comment.js';
import { addCardLabel } from '../../boards/labels/add-card-label.js';
import { createLabel } from '../../boards/labels/create-label.js';
import { removeCardLabel } from '../../boards/labels/remove-card-label.js';
import { authorize } from '../../boards/policy.js';
import { TEXT_LIMIT } from '../../boards/schemas.js';
import type { PrismaClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { cutText } from '../../platform/schemas.js';
import type { Effects } from '../../platform/after-commit.js';
import type { ReplyMail } from '../replies/reply-mail.js';
import { createTicketComment } from '../comments/create-ticket-comment.js';
import type { TicketCommentView } from '../comments/schemas.js';
import { presentTicket } from '../presenters.js';
import type { TicketView } from '../schemas.js';
import { updateTicket } from '../update-ticket.js';
import { ticketCardText } from './card-text.js';
import { teamWriter } from './team-writer.js';

/** The label each priority wears on a ticket's card (found by name on the board, else created). */
const PRIORITY_LABELS = {
  low: { name: 'Low priority', color: 'sky' },
  normal: { name: 'Normal priority', color: 'green' },
  high: { name: 'High priority', color: 'orange' },
  urgent: { name: 'Urgent', color: 'red' },
} as const;


const isDone = (status: string) => status === 'solved' || status === 'closed';

/**
 * How long the lists that solve tickets are trusted without being read again: a safety net only,
 * for an announcement missed while the event bus reconnected (a change is forgotten at once: its
 * own 'tickets.board' effect here, its announcement in the others).
 */
const SOLVED_LISTS_MAX_AGE_MS = 60_000;

type Log = { warn(o: object, m: string): void };

/**
 * Tickets as cards, both ways, with the ticket as the one source of truth.
 *
 * Module direction: tickets → boards. The boards module knows nothing of tickets; this file calls
 * its public domain functions (createCard, moveCard, createComment, createLabel) as the
 * workspace's team (teamWriter), so every rule, activity, stream event and board webhook of
 * those changes is the boards module's own (changeBoard, which reports them to the one owner of
 * after-commit effects, platform/after-commit.ts). The way there — a ticket created, changed or
 * publicly commented — reaches the card through that owner's 'cardFollowsTicket' effect
 * (cardFollowsTicketEffect, ./plugin.ts); the way back — a card moved by a person — reaches tickets
 * through its 'ticketFollowsCard' effect (ticketCardsEffect), and the ticket's change goes through
 * updateTicket like any other (its ticket.updated webhook included). Nothing else calls the
 * follow-ups below (test/platform/after-commit-effects.test.ts).
 *
 * Each follow-up runs after the change that causes it has committed (a ticket's card after the
 * ticket, a ticket's status after its card's move): a failure is logged and never fails the change
 * that caused it. Not durable: a process that stops between the two leaves the follow-up undone
 * (the ticket stays right; its card lags until the next change).
 */
export class TicketCards {
  constructor(private readonly deps: { db: PrismaClient; events: EventBus; effects: Effects; log: Log }) {}

  /**
   * The lists some workspace solves its tickets in (Workspace.ticketsSolvedListId), read when first
   * needed: only a move into or out of one of them can change a ticket, so every other card move
   * (nearly all, on boards without tickets) costs no query here.
   */
  private solvedLists: { read: Promise<Set<number>>; at: number } | null = null;

  /** A workspace's tickets board changed (here: the 'tickets.board' effect; elsewhere: announced). */
  forgetSolvedLists(): void {
    this.solvedLists = null;
  }

  private listsThatSolve(): Promise<Set<number>> {
    if (!this.solvedLists || Date.now() - this.solvedLists.at > SOLVED_LISTS_MAX_AGE_MS) {
      const read = this.deps.db.workspace
        .findMany({ where: { ticketsSolvedListId: { not: null } }, select: { ticketsSolvedListId: true } })
        .then((rows) => new Set(rows.map((r) => r.ticketsSolvedListId!)));
      const entry = { read, at: Date.now() };
      this.solvedLists = entry;
      // A failed read is not kept: the next move reads again.
      read.catch(() => {
        if (this.solvedLists === entry) this.solvedLists = null;
      });
    }
    return this.solvedLists.read;
  }

  private async target(workspaceId: number) {
    return this.deps.db.workspace.findUnique({ where: { id: workspaceId }, select: { ticketsBoardId: true, ticketsListId: true, ticketsSolvedListId: true } });
  }

  private ctx(actor: Actor) {
    return { db: this.deps.db, events: this.deps.events, effects: this.deps.effects, actor };
  }

  private async follow(what: string, ticketId: number, work: () => Promise<unknown>) {
    try {
      await work();
    } catch (error) {
      this.deps.log.warn({ err: error, ticketId }, `tickets as cards: ${what} failed`);
    }
  }

  /** After a ticket's commit (the 'cardFollowsTicket' effect of 'ticket.created'): its card in the workspace's tickets list, if the workspace has one. */
  async ticketCreated(ticket: TicketView): Promise<void> {
    await this.follow('the new ticket\'s card', ticket.id, async () => {
      const target = await this.target(ticket.workspaceId);
      if (!target?.ticketsBoardId || !target.ticketsListId) return;
      const actor = await teamWriter({ db: this.deps.db, workspaceId: ticket.workspaceId, boardId: target.ticketsBoardId });
      if (!actor) throw new Error(`no member of workspace ${ticket.workspaceId} can write board ${target.ticketsBoardId}`);
      const labelId = await this.priorityLabel(actor, target.ticketsBoardId, ticket.priority);
      const card = await createCard({
        ...this.ctx(actor),
        listId: target.ticketsListId,
        title: ticket.subject,
        description: await ticketCardText({ db: this.deps.db, ticket }),
        labelIds: [labelId],
      });
      await this.deps.db.ticket.update({ where: { id: ticket.id }, data: { cardId: card.id } });
    });
  }

  private async priorityLabel(actor: Actor, boardId: number, priority: TicketView['priority']) {
    const wanted = PRIORITY_LABELS[priority];
    const found = await this.deps.db.label.findFirst({ where: { boardId, name: wanted.name }, orderBy: { id: 'asc' }, select: { id: true } });
    return found?.id ?? (await createLabel({ ...this.ctx(actor), boardId, name: wanted.name, color: wanted.color })).id;
  }

  /**
   * After a ticket's change (status or priority; the 'cardFollowsTicket' effect of 'ticket.updated'): a solved (or closed) ticket's card goes to the
   * solved list, a ticket open again (the customer answered) comes back to the tickets list, and the
   * card wears the label of its ticket's priority (the other priorities' labels taken off). What is
   * already so is left alone.
   */
  async ticketChanged(ticket: TicketView): Promise<void> {
    await this.follow('the ticket\'s card', ticket.id, async () => {
      const row = await this.deps.db.ticket.findUnique({
        where: { id: ticket.id },
        select: { card: { select: { id: true, listId: true, boardId: true, archived: true, labels: { select: { label: { select: { id: true, name: true } } } } } } },
      });
      const card = row?.card;
      if (!card || card.archived) return;
      const target = await this.target(ticket.workspaceId);
      if (!target?.ticketsBoardId || !target.ticketsListId || card.boardId !== target.ticketsBoardId) return;
      let writer: Actor | null = null;
      const actor = async () => {
        writer ??= await teamWriter({ db: this.deps.db, workspaceId: ticket.workspaceId, boardId: card.boardId });
        if (!writer) throw new Error(`no member of workspace ${ticket.workspaceId} can write board ${card.boardId}`);
        return writer;
      };

      const wanted = PRIORITY_LABELS[ticket.priority].name;
      const priorityNames = new Set<string>(Object.values(PRIORITY_LABELS).map((l) => l.name));
      const worn = card.labels.map((l) => l.label).filter((l) => priorityNames.has(l.name));
      if (!worn.some((l) => l.name === wanted)) {
        await addCardLabel({ ...this.ctx(await actor()), cardId: card.id, labelId: await this.priorityLabel(await actor(), card.boardId, ticket.priority) });
      }
      for (const label of worn.filter((l) => l.name !== wanted)) await removeCardLabel({ ...this.ctx(await actor()), cardId: card.id, labelId: label.id });

      if (!target.ticketsSolvedListId) return;
      const listId = isDone(ticket.status) ? target.ticketsSolvedListId : card.listId === target.ticketsSolvedListId ? target.ticketsListId : card.listId;
      if (listId !== card.listId) await moveCard({ ...this.ctx(await actor()), cardId: card.id, listId });
    });
  }

  /**
   * A committed card move (the 'ticketFollowsCard' effect): a ticket's card put in the solved list solves
   * the ticket; taken out of it, the ticket is open again. Moves within a list are not looked at.
   */
  async cardMoved(activity: ActivityView): Promise<void> {
    if (activity.type !== 'card.moved') return;
    const { cardId, from, to } = activity.data;
    if (from.listId === to.listId) return;
    const solving = await this.listsThatSolve();
    if (!solving.has(from.listId) && !solving.has(to.listId)) return;
    const [row] = await this.deps.db.$queryRaw<{ id: number; workspaceId: number; status: string; solvedListId: number | null }[]>`
      SELECT t.id, t."workspaceId", t.status::text AS status, w."ticketsSolvedListId" AS "solvedListId"
      FROM "Ticket" t JOIN "Workspace" w ON w.id = t."workspaceId" WHERE t."cardId" = ${cardId}`;
    if (!row?.solvedListId) return;
    let status: TicketView['status'] | null = null;
    if (to.listId === row.solvedListId && !isDone(row.status)) status = 'solved';
    else if (from.listId === row.solvedListId && to.listId !== row.solvedListId && row.status === 'solved') status = 'open';
    if (!status) return;
    const changed = status;
    await this.follow('the moved card\'s ticket', row.id, () =>
      updateTicket({ db: this.deps.db, workspaceId: row.workspaceId, id: String(row.id), changes: { status: changed }, events: this.deps.events, effects: this.deps.effects }));
  }

  /**
   * A public ticket comment as committed, wherever it was written (the widget, the reply page, the
   * console, the API, the card; the 'cardFollowsTicket' effect of 'ticket.commented'): it appears on the ticket's card, so the card keeps the whole
   * conversation. The customer's answers by the requester (a name without an account); the team's
   * replies by the person who wrote them when they can write the board (else by the team's writer:
   * a reply through the API has no person), marked as replies to the customer.
   */
  async commentPublished(comment: TicketCommentView): Promise<void> {
    await this.follow('the ticket comment on the card', comment.ticketId, async () => {
      const ticket = await this.deps.db.ticket.findUnique({ where: { id: comment.ticketId }, select: { workspaceId: true, requesterEmail: true, card: { select: { id: true, boardId: true } } } });
      if (!ticket?.card) return;
      const byTeam = comment.author === 'team';
      const writtenBy = byTeam ? (await this.deps.db.ticketComment.findUnique({ where: { id: comment.id }, select: { userId: true } }))?.userId : null;
      const actor = await teamWriter({ db: this.deps.db, workspaceId: ticket.workspaceId, boardId: ticket.card.boardId, preferUserId: writtenBy ?? null });
      if (!actor) throw new Error(`no member of workspace ${ticket.workspaceId} can write board ${ticket.card.boardId}`);
      await createComment(
        byTeam
          ? { ...this.ctx(actor), cardId: ticket.card.id, text: cutText(`_Replied to the customer:_\n\n${comment.body}`, TEXT_LIMIT) }
          : { ...this.ctx(actor), cardId: ticket.card.id, text: cutText(comment.body, TEXT_LIMIT), byName: ticket.requesterEmail },
      );
    });
  }

  /** The ticket a card shows, if any, for someone who can see the card (404 otherwise, as for any card). */
  async ticketOfCard({ actor, cardId }: { actor: Actor; cardId: number }): Promise<TicketView | null> {
    await requireCard(this.deps.db, actor, cardId);
    const ticket = await this.deps.db.ticket.findUnique({ where: { cardId } });
    return ticket ? presentTicket(ticket) : null;
  }

  /**
   * "Reply to customer" on a ticket's card: a public ticket comment through createTicketComment
   * (the one function for replies: widget, mail, webhook), written by the person; like every public
   * ticket comment it then appears on the card (commentPublished). Writers of the board only.
   */
  async replyFromCard({ actor, cardId, body, mail }: { actor: Actor; cardId: number; body: string; mail: ReplyMail | null }) {
    const { role } = await requireCard(this.deps.db, actor, cardId);
    authorize(actor, 'card.write', role);
    const ticket = await this.deps.db.ticket.findUnique({ where: { cardId }, select: { id: true, workspaceId: true } });
    if (!ticket) throw notFound('ticket: this card is not a ticket\'s card');
    const { comment } = await createTicketComment({
      db: this.deps.db, workspaceId: ticket.workspaceId, ticketId: String(ticket.id), input: { body, public: true }, author: 'team', userId: actor.userId, events: this.deps.events, effects: this.deps.effects, mail,
    });
    return comment;
  }
}
