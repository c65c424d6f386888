/**
 * The load: concurrent clients that create cards, move them between and within lists, create
 * tickets, invite new addresses to the board and assign a second member to their cards (both of
 * which cause mail: the invitation, and a notification batch), recording what the server
 * acknowledged (2xx) and how every other request ended.
 *
 * How a request ended decides what it may have done:
 * - `ack` (2xx): committed (the server commits before it answers);
 * - `refused` (nothing listening), `s4xx`, `s429`: did nothing (never arrived, or refused and rolled back);
 * - `reset` (connection cut mid-request), `timeout`, `s503`, `s5xx`: unknown — it may have committed
 *   (a 503 can come from a COMMIT whose connection died after PostgreSQL wrote it).
 * Each card is only ever moved by the client that created it, one request at a time, so its moves
 * are ordered and "its last acknowledged move" is well defined.
 */

/** What the chaos run talks to. */
export interface Target {
  base: string;
  key: string;
  workspaceToken: string;
  boardId: number;
  listIds: number[];
  /**
   * The board members the clients assign to their cards (told of it by mail), each given at most
   * ASSIGNMENTS_PER_ASSIGNEE: an address gets at most 10 notification mails a day (src/mail/caps.ts),
   * and with 2 s batches each assignment can be its own mail. One assignee would see the cap, not
   * the delivery this run checks.
   */
  assignees: { id: number; email: string }[];
}

/** Assignments per assignee, under the day's cap of 10 notification mails to one address. */
export const ASSIGNMENTS_PER_ASSIGNEE = 8;

export type Outcome = 'ack' | 'refused' | 'reset' | 'timeout' | 's503' | 's429' | 's4xx' | 's5xx';
export const OUTCOMES: Outcome[] = ['ack', 'refused', 'reset', 'timeout', 's503', 's429', 's4xx', 's5xx'];
/** Outcomes after which the write may have landed although it was not acknowledged. */
export const AMBIGUOUS = new Set<Outcome>(['reset', 'timeout', 's503', 's5xx']);

export interface MoveRecord {
  target: number;
  outcome: Outcome;
  at: number;
}

export interface CardRecord {
  id: number;
  title: string;
  createdIn: number;
  moves: MoveRecord[];
  /** How assigning `assignee` to it ended, once tried (each card is assigned at most once). */
  assigned?: Outcome;
  /** The address of the member it was assigned to. */
  assignee?: string;
}

/** A request that answered something that is a defect or unexpected, kept for the report. */
export interface Oddity {
  at: number;
  request: string;
  status: number;
  body: string;
  /** X-Request-Id: finds the server's log lines for it. */
  requestId: string | null;
}

type Op = 'card.create' | 'card.move' | 'ticket.create' | 'invite' | 'assign';
export const OPS: Op[] = ['card.create', 'card.move', 'ticket.create', 'invite', 'assign'];

export class Ledger {
  /** Cards whose creation was acknowledged, by id. */
  readonly cards = new Map<number, CardRecord>();
  /** Titles of card creations that may have landed without an acknowledgement. */
  readonly ambiguousCardTitles = new Set<string>();
  /** Tickets whose creation was acknowledged: id → subject. */
  readonly tickets = new Map<number, string>();
  readonly ambiguousTicketSubjects = new Set<string>();
  /** Addresses whose invitation was acknowledged (202), and those that may have been invited without one. */
  readonly invited = new Set<string>();
  readonly ambiguousInvited = new Set<string>();
  /** Assignments tried so far, across clients: the next one goes to assignee ⌊n / ASSIGNMENTS_PER_ASSIGNEE⌋. */
  assignmentsTried = 0;
  /** Counts by operation and outcome. */
  readonly counts: Record<Op, Record<Outcome, number>> = {
    'card.create': zeroCounts(),
    'card.move': zeroCounts(),
    'ticket.create': zeroCounts(),
    invite: zeroCounts(),
    assign: zeroCounts(),
  };
  /** When each request started and ended and how (for recovery times and failures per disruption). */
  readonly timeline: { start: number; at: number; outcome: Outcome }[] = [];
  /** Longest time a request took to be answered 503. */
  slowest503Ms = 0;
  /** 5xx other than 503 (defects) and unexpected 4xx. */
  readonly serverErrors: Oddity[] = [];
  readonly unexpected4xx: Oddity[] = [];
  /** Acknowledged answers that contradict the request (a move answered with another list). */
  readonly contradictions: string[] = [];

  record(op: Op, answer: Answer) {
    this.counts[op][answer.outcome]++;
    this.timeline.push({ start: answer.start, at: Date.now(), outcome: answer.outcome });
  }

  /** When the first request sent after `t` (epoch ms) was acknowledged, or null. */
  firstAckAfter(t: number): number | null {
    let first: number | null = null;
    for (const e of this.timeline) if (e.outcome === 'ack' && e.start > t && (first === null || e.at < first)) first = e.at;
    return first;
  }

  /** Failures by outcome between two instants. */
  failuresBetween(from: number, to: number): Partial<Record<Outcome, number>> {
    const out: Partial<Record<Outcome, number>> = {};
    for (const e of this.timeline) if (e.outcome !== 'ack' && e.at >= from && e.at <= to) out[e.outcome] = (out[e.outcome] ?? 0) + 1;
    return out;
  }

  totals(): Record<Outcome, number> {
    const out = zeroCounts();
    for (const byOutcome of Object.values(this.counts)) for (const o of OUTCOMES) out[o] += byOutcome[o];
    return out;
  }
}

function zeroCounts(): Record<Outcome, number> {
  return { ack: 0, refused: 0, reset: 0, timeout: 0, s503: 0, s429: 0, s4xx: 0, s5xx: 0 };
}

interface Answer {
  start: number;
  outcome: Outcome;
  status: number;
  json: unknown;
}

/** One request; never throws: how it ended is the outcome. */
async function call(ledger: Ledger, method: string, url: string, token: string, body: unknown, timeoutMs: number): Promise<Answer> {
  const t0 = performance.now();
  const start = Date.now();
  let status = 0;
  try {
    const res = await fetch(url, {
      method,
      // No body, no content type: Fastify refuses an empty JSON body.
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = res.status;
    const text = await res.text();
    const request = `${method} ${new URL(url).pathname}`;
    if (status >= 200 && status < 300) {
      try {
        return { start, outcome: 'ack', status, json: JSON.parse(text) as unknown };
      } catch {
        ledger.contradictions.push(`${request} answered ${status} with a body that is not JSON: ${text.slice(0, 100)}`);
        return { start, outcome: 'reset', status, json: null };
      }
    }
    if (status === 503) {
      ledger.slowest503Ms = Math.max(ledger.slowest503Ms, performance.now() - t0);
      return { start, outcome: 's503', status, json: null };
    }
    if (status === 429) return { start, outcome: 's429', status, json: null };
    const oddity = { at: Date.now(), request, status, body: text.slice(0, 300), requestId: res.headers.get('x-request-id') };
    if (status >= 500) {
      ledger.serverErrors.push(oddity);
      return { start, outcome: 's5xx', status, json: null };
    }
    ledger.unexpected4xx.push(oddity);
    return { start, outcome: 's4xx', status, json: null };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    if (e.name === 'TimeoutError') return { start, outcome: 'timeout', status, json: null };
    if (e.cause?.code === 'ECONNREFUSED') return { start, outcome: 'refused', status, json: null };
    // Cut mid-request, or the answer's body cut after a 2xx status: the write may have landed.
    return { start, outcome: 'reset', status, json: null };
  }
}

export interface LoadOptions {
  clients: number;
  /** Per request; a request still unanswered then counts as a timeout (a hang). */
  timeoutMs: number;
  /** Tag for titles and subjects, unique per run part. */
  tag: string;
}

/** Starts the clients; `stop()` resolves once every client has finished its request in flight. */
export function startLoad(target: Target, ledger: Ledger, options: LoadOptions) {
  let stopped = false;
  const clients = Array.from({ length: options.clients }, (_, i) => runClient(i));

  async function runClient(client: number) {
    const own: CardRecord[] = [];
    let seq = 0;
    while (!stopped) {
      const r = Math.random();
      let answer: Answer;
      const unassigned = own.filter((c) => c.assigned === undefined);
      const assignee = target.assignees[Math.floor(ledger.assignmentsTried / ASSIGNMENTS_PER_ASSIGNEE)];
      if (own.length < 3 || r < 0.3 || (r >= 0.9 && (!unassigned.length || !assignee))) {
        const listId = pick(target.listIds);
        const title = `${options.tag}-c${client}-${seq++}`;
        const body = Math.random() < 0.3 ? { title, position: 0 } : { title };
        answer = await call(ledger, 'POST', `${target.base}/api/lists/${listId}/cards`, target.key, body, options.timeoutMs);
        ledger.record('card.create', answer);
        if (answer.outcome === 'ack') {
          const card = answer.json as { id: number; listId: number };
          if (card.listId !== listId) ledger.contradictions.push(`card ${card.id} created in list ${listId}, answered list ${card.listId}`);
          const record = { id: card.id, title, createdIn: listId, moves: [] };
          ledger.cards.set(card.id, record);
          own.push(record);
        } else if (AMBIGUOUS.has(answer.outcome)) ledger.ambiguousCardTitles.add(title);
      } else if (r < 0.7) {
        const card = pick(own);
        const listId = pick(target.listIds); // the card's own list a third of the time: a move within it
        const body = Math.random() < 0.5 ? { listId, position: 0 } : { listId };
        answer = await call(ledger, 'POST', `${target.base}/api/cards/${card.id}/move`, target.key, body, options.timeoutMs);
        ledger.record('card.move', answer);
        card.moves.push({ target: listId, outcome: answer.outcome, at: Date.now() });
        if (answer.outcome === 'ack') {
          const moved = answer.json as { listId: number; position: number };
          if (moved.listId !== listId) ledger.contradictions.push(`card ${card.id} moved to list ${listId}, answered list ${moved.listId}`);
        }
      } else if (r >= 0.9) {
        const card = pick(unassigned);
        ledger.assignmentsTried++;
        card.assignee = assignee!.email;
        answer = await call(ledger, 'PUT', `${target.base}/api/cards/${card.id}/members/${assignee!.id}`, target.key, undefined, options.timeoutMs);
        ledger.record('assign', answer);
        card.assigned = answer.outcome;
      } else if (r >= 0.8) {
        const email = `${options.tag}-i${client}-${seq++}@example.com`;
        answer = await call(ledger, 'POST', `${target.base}/api/boards/${target.boardId}/members`, target.key, { email, role: 'member' }, options.timeoutMs);
        ledger.record('invite', answer);
        if (answer.outcome === 'ack') {
          const invitation = (answer.json as { invitation?: { email: string; mailed: boolean } }).invitation;
          if (!invitation?.mailed || invitation.email !== email) ledger.contradictions.push(`invitation of ${email} answered ${JSON.stringify(answer.json).slice(0, 200)}`);
          ledger.invited.add(email);
        } else if (AMBIGUOUS.has(answer.outcome)) ledger.ambiguousInvited.add(email);
      } else {
        const subject = `${options.tag}-t${client}-${seq++}`;
        answer = await call(ledger, 'POST', `${target.base}/v1/tickets`, target.workspaceToken, { subject, requester: { email: `c${client}@example.com` } }, options.timeoutMs);
        ledger.record('ticket.create', answer);
        if (answer.outcome === 'ack') ledger.tickets.set((answer.json as { id: number }).id, subject);
        else if (AMBIGUOUS.has(answer.outcome)) ledger.ambiguousTicketSubjects.add(subject);
      }
      // Do not spin while the server is down or shedding load.
      if (answer.outcome === 'refused' || answer.outcome === 'reset') await sleep(100);
      else if (answer.outcome === 's503' || answer.outcome === 's429') await sleep(100);
    }
  }

  return {
    async stop() {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

function pick<T>(items: T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
