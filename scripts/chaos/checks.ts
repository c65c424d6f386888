import { AMBIGUOUS, type CardRecord, type Ledger, type Target } from './load.js';
import type { Receiver } from './receiver.js';
import { sleep } from './server.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

interface BoardSnapshot {
  lists: { id: number; cards: { id: number; listId: number; title: string; position: number }[] }[];
}

interface TicketView {
  id: number;
  subject: string;
}

/** GET with the given token, retried for up to 30 s until it answers 200. */
async function getJson<T>(url: string, token: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(15_000) });
      if (res.status === 200) return (await res.json()) as T;
      await res.arrayBuffer();
      if (Date.now() > deadline) throw new Error(`GET ${url}: ${res.status}`);
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await sleep(200);
  }
}

/**
 * The lists a card may be in now. Its last acknowledged move (or, with none, its creation)
 * put it in one list; a later move that was not acknowledged but may have landed (connection
 * cut, 503, 5xx, timeout) may have moved it again, in order, so the card may be in any of
 * those targets too. A move refused outright (connection refused, 4xx) did nothing. An earlier
 * unacknowledged move cannot land after a later acknowledged one: the requests of one card are
 * sequential, and a kill -9 or an immediate PostgreSQL stop ends the transactions in flight —
 * except a request the client gave up on (timeout), which may still have been running.
 */
export function allowedLists(card: CardRecord): { allowed: Set<number>; settled: boolean } {
  let lastAck = -1;
  card.moves.forEach((m, i) => {
    if (m.outcome === 'ack') lastAck = i;
  });
  const allowed = new Set([lastAck >= 0 ? card.moves[lastAck]!.target : card.createdIn]);
  card.moves.forEach((m, i) => {
    if ((i > lastAck && AMBIGUOUS.has(m.outcome)) || m.outcome === 'timeout') allowed.add(m.target);
  });
  return { allowed, settled: allowed.size === 1 };
}

/** Cards and lists: every acknowledged card, in an allowed list, no phantom card, positions 0..n-1. */
export async function checkBoard(target: Target, ledger: Ledger): Promise<Check[]> {
  const board = await getJson<BoardSnapshot>(`${target.base}/api/boards/${target.boardId}`, target.key);
  const where = new Map<number, { listId: number; title: string }>();
  const checks: Check[] = [];
  let duplicates = 0;
  let listMismatch = 0;
  const badPositions: string[] = [];
  for (const list of board.lists) {
    const positions = list.cards.map((c) => c.position);
    const expected = positions.map((_, i) => i);
    if (positions.join() !== expected.join()) badPositions.push(`list ${list.id}: [${summarise(positions)}]`);
    for (const card of list.cards) {
      if (where.has(card.id)) duplicates++;
      where.set(card.id, { listId: list.id, title: card.title });
      if (card.listId !== list.id) listMismatch++;
    }
  }
  checks.push({
    name: 'positions 0..n-1 in every list',
    ok: badPositions.length === 0 && duplicates === 0 && listMismatch === 0,
    detail:
      `${board.lists.length} lists, ${board.lists.map((l) => l.cards.length).join('/')} cards` +
      (badPositions.length ? `; broken: ${badPositions.join('; ')}` : '') +
      (duplicates ? `; ${duplicates} cards listed twice` : '') +
      (listMismatch ? `; ${listMismatch} cards whose listId is not their list` : ''),
  });

  const missing: number[] = [];
  const misplaced: string[] = [];
  let settled = 0;
  let unsettled = 0;
  let landedLate = 0;
  for (const card of ledger.cards.values()) {
    const found = where.get(card.id);
    if (!found) {
      missing.push(card.id);
      continue;
    }
    const { allowed, settled: isSettled } = allowedLists(card);
    if (isSettled) settled++;
    else unsettled++;
    if (!allowed.has(found.listId)) {
      const last = card.moves.at(-1);
      misplaced.push(`card ${card.id} in list ${found.listId}, allowed ${[...allowed].join('|')} (moves: ${card.moves.map((m) => `${m.target}:${m.outcome}`).join(' ')}${last ? '' : 'none'})`);
    } else if (!isSettled) {
      const lastAck = card.moves.findLastIndex((m) => m.outcome === 'ack');
      const base = lastAck >= 0 ? card.moves[lastAck]!.target : card.createdIn;
      if (found.listId !== base) landedLate++;
    }
  }
  checks.push({
    name: 'every acknowledged card exists',
    ok: missing.length === 0,
    detail: `${ledger.cards.size} acknowledged, ${missing.length} missing${missing.length ? `: ${missing.slice(0, 20).join(', ')}` : ''}`,
  });
  checks.push({
    name: "each card in its last acknowledged move's list",
    ok: misplaced.length === 0,
    detail:
      `${settled} cards settled by an acknowledgement (must match); ${unsettled} with a later unacknowledged move that may have landed ` +
      `(either list accepted; ${landedLate} did land)` +
      (misplaced.length ? `; WRONG: ${misplaced.slice(0, 10).join('; ')}` : ''),
  });

  const extras = [...where.entries()].filter(([id]) => !ledger.cards.has(id));
  const unexplained = extras.filter(([, c]) => !ledger.ambiguousCardTitles.has(c.title));
  checks.push({
    name: 'no card that was not asked for',
    ok: unexplained.length === 0,
    detail:
      `${extras.length} unacknowledged creations landed (of ${ledger.ambiguousCardTitles.size} that may have)` +
      (unexplained.length ? `; UNEXPLAINED: ${unexplained.slice(0, 10).map(([id, c]) => `${id} "${c.title}"`).join(', ')}` : ''),
  });
  return checks;
}

/** Tickets and their webhooks: every acknowledged ticket exists, and every ticket's event arrived. */
export async function checkTickets(target: Target, ledger: Ledger, receiver: Receiver, waitMs: number): Promise<{ checks: Check[]; webhookWaitMs: number }> {
  const tickets: TicketView[] = [];
  for (let cursor: string | null = null; ; ) {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page: { tickets: TicketView[]; nextCursor: string | null } = await getJson(`${target.base}/v1/tickets?limit=100${query}`, target.workspaceToken);
    tickets.push(...page.tickets);
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  const byId = new Map(tickets.map((t) => [t.id, t]));
  const checks: Check[] = [];
  const missing = [...ledger.tickets.keys()].filter((id) => !byId.has(id));
  checks.push({
    name: 'every acknowledged ticket exists',
    ok: missing.length === 0,
    detail: `${ledger.tickets.size} acknowledged, ${missing.length} missing${missing.length ? `: ${missing.slice(0, 20).join(', ')}` : ''}`,
  });
  const extras = tickets.filter((t) => !ledger.tickets.has(t.id));
  const unexplained = extras.filter((t) => !ledger.ambiguousTicketSubjects.has(t.subject));
  checks.push({
    name: 'no ticket that was not asked for',
    ok: unexplained.length === 0 && byId.size === tickets.length,
    detail:
      `${extras.length} unacknowledged creations landed (of ${ledger.ambiguousTicketSubjects.size} that may have)` +
      (unexplained.length ? `; UNEXPLAINED: ${unexplained.slice(0, 10).map((t) => `${t.id} "${t.subject}"`).join(', ')}` : '') +
      (byId.size !== tickets.length ? `; the listing repeats ${tickets.length - byId.size} tickets` : ''),
  });

  // Every ticket that exists (acknowledged or not) has its event: the outbox row is in the ticket's transaction.
  const t0 = Date.now();
  const delivered = () => new Set(receiver.deliveries.filter((d) => d.type === 'ticket.created').map((d) => d.ticketId));
  let undelivered = tickets.filter((t) => !delivered().has(t.id));
  while (undelivered.length && Date.now() - t0 < waitMs) {
    await sleep(250);
    const seen = delivered();
    undelivered = undelivered.filter((t) => !seen.has(t.id));
  }
  const webhookWaitMs = Date.now() - t0;
  const deliveries = receiver.deliveries;
  const ids = new Set(deliveries.map((d) => d.webhookId));
  const eventsPerTicket = new Map<number | null, Set<string>>();
  for (const d of deliveries) {
    if (!eventsPerTicket.has(d.ticketId)) eventsPerTicket.set(d.ticketId, new Set());
    eventsPerTicket.get(d.ticketId)!.add(d.webhookId);
  }
  const phantom = [...eventsPerTicket.keys()].filter((id) => id === null || !byId.has(id));
  const split = [...eventsPerTicket.entries()].filter(([, s]) => s.size > 1);
  const badSignature = deliveries.filter((d) => !d.signatureOk).length;
  const wrongType = deliveries.filter((d) => d.type !== 'ticket.created').length;
  checks.push({
    name: "every ticket's ticket.created webhook arrived",
    ok: undelivered.length === 0,
    detail:
      `${tickets.length} tickets, ${tickets.length - undelivered.length} delivered (all in ${(webhookWaitMs / 1000).toFixed(1)} s after the load stopped)` +
      (undelivered.length ? `; NOT DELIVERED: ${undelivered.slice(0, 20).map((t) => t.id).join(', ')}` : ''),
  });
  checks.push({
    name: 'one event per ticket, none for a ticket that does not exist',
    ok: phantom.length === 0 && split.length === 0 && wrongType === 0,
    detail:
      `${ids.size} webhook-ids for ${eventsPerTicket.size} tickets` +
      (phantom.length ? `; events for tickets that do not exist: ${phantom.slice(0, 10).join(', ')}` : '') +
      (split.length ? `; tickets with several webhook-ids: ${split.slice(0, 10).map(([id]) => id).join(', ')}` : '') +
      (wrongType ? `; ${wrongType} deliveries of another type` : ''),
  });
  checks.push({
    name: 'every delivery signed (Standard Webhooks)',
    ok: badSignature === 0,
    detail: `${deliveries.length} deliveries, ${deliveries.length - ids.size} duplicates (same webhook-id again: at-least-once), ${badSignature} bad signatures`,
  });
  return { checks, webhookWaitMs };
}

/** "0,1,2,…,n" shown compactly, with the first place it breaks. */
function summarise(positions: number[]): string {
  const bad = positions.findIndex((p, i) => p !== i);
  if (bad < 0) return `0..${positions.length - 1}`;
  return `0..${bad - 1}, then ${positions.slice(bad, bad + 5).join(',')}… (${positions.length} cards)`;
}
