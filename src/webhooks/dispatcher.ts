import { channel } from 'node:diagnostics_channel';
import type { Database } from '../platform/db.js';
import { type ClaimedDelivery, claimDeliveries, nextClaimableAt, releaseDeliveries, withholdDelivery } from './claim-deliveries.js';
import { type OutboxSql, outboxSql } from '../platform/outbox-sql.js';
import { OutboxWaker, settleWithin } from '../platform/outbox-waker.js';
import { type AttemptResult, recordAttempts } from './record-attempts.js';
import { retryDelay } from './retry-schedule.js';
import { createSender, type AttemptOutcome, type Sender } from './send-attempt.js';
import { signatureHeader } from './signing.js';
import { WEBHOOK_ATTEMPT_CHANNEL } from './metrics.js';

export interface DispatcherOptions {
  timeoutMs: number;
  /** Delays between consecutive attempts: one retry per entry, then the delivery fails. */
  schedule: number[];
  allowPrivate: boolean;
  /** An endpoint whose attempts have all failed for this long is disabled. */
  disableAfterMs: number;
  pollMs: number;
  /** Attempts in flight at once in this process. */
  concurrency?: number;
  /** Attempts in flight at once to one endpoint (and its keep-alive connections). */
  perEndpoint?: number;
  log: { warn(o: object, m: string): void; info(o: object, m: string): void };
}

/** Each finished attempt, for metrics (src/platform/http/metrics.ts): `{ db, succeeded, status }`. */
const attempted = channel(WEBHOOK_ATTEMPT_CHANNEL);

/** Time kept in every lease for an attempt's result to be written after its deadline. */
const RECORD_MARGIN_MS = 5000;
/** At most this many times an endpoint's slots may be claimed ahead, for a fast receiver. */
const MAX_AHEAD_ROUNDS = 8;

interface Queued extends ClaimedDelivery {
  /** `performance.now()` past which the lease could run out during the attempt: released instead. */
  startBy: number;
}

/** A finished attempt waiting to be written. */
interface Result extends AttemptResult {
  resolve(): void;
  reject(error: unknown): void;
}

/** One endpoint's share of this process. */
interface EndpointSlots {
  id: number;
  inFlight: number;
  /** Claimed deliveries waiting for one of this endpoint's slots (or a free slot of the process). */
  queue: Queued[];
  /** Recent attempts' mean duration (ms), to size how far ahead to claim; null before the first. */
  durationMs: number | null;
  /** In `ready` (deliveries queued and a slot of its own free). */
  ready: boolean;
}

/**
 * Sends the outbox's deliveries. Every app process runs one: it claims due deliveries with
 * `FOR UPDATE SKIP LOCKED` under a lease (so processes never take the same one, and a crashed
 * process's claims run out and are taken again), is woken at once by this process's commits,
 * and otherwise looks every `pollMs`. Results are written under the lease as a fencing token:
 * an attempt that outlived its lease records its attempt but no longer moves the delivery.
 *
 * Slots: `concurrency` attempts in flight in all, at most `perEndpoint` of them to one endpoint,
 * taken in turn by the endpoints with deliveries waiting, so a slow endpoint holds its own slots
 * and no others. Each endpoint's deliveries are claimed ahead of its slots, as many as its recent
 * attempts' pace sends well within a lease: a fast receiver's deliveries come in large batches,
 * a slow one's one round at a time.
 */
export class WebhookDispatcher {
  private readonly sender: Sender;
  private readonly sql: OutboxSql;
  private readonly concurrency: number;
  private readonly perEndpoint: number;
  private readonly leaseMs: number;
  private readonly endpoints = new Map<number, EndpointSlots>();
  /** Endpoints whose next delivery can start once the process has a free slot, in turn. */
  private ready: EndpointSlots[] = [];
  private inFlight = 0;
  private queued = 0;
  /** Attempts not yet recorded (sending, or waiting for their result's write), and releases. */
  private readonly unfinished = new Set<Promise<void>>();
  private readonly waker: OutboxWaker;
  private readonly results: Result[] = [];
  private writing = false;
  private expired: Queued[] = [];

  constructor(private readonly db: Database, private readonly options: DispatcherOptions) {
    this.sql = outboxSql(db);
    this.concurrency = options.concurrency ?? 64;
    this.perEndpoint = Math.min(options.perEndpoint ?? 16, this.concurrency);
    // Long enough for a claimed delivery to wait for one attempt (at most `timeoutMs`), be
    // attempted itself, and have its result written; one that waited longer is released unsent.
    this.leaseMs = 2 * options.timeoutMs + RECORD_MARGIN_MS;
    this.sender = createSender({ timeoutMs: options.timeoutMs, allowPrivate: options.allowPrivate, maxSockets: this.perEndpoint });
    this.waker = new OutboxWaker({
      look: () => this.claimAndSend(),
      // Endpoints whose slots are all taken here are left out: a slot coming free looks again.
      nextDue: () => nextClaimableAt({ sql: this.sql, exclude: [...this.rooms()].filter(([, room]) => room <= 0).map(([id]) => id) }),
      pollMs: options.pollMs,
      onError: (error) => this.options.log.warn({ err: error }, 'webhook dispatcher could not claim deliveries; retrying'),
    });
  }

  private get running() {
    return this.waker.isRunning;
  }

  start() {
    this.waker.start();
  }

  /** A change committed events: look for due deliveries now. */
  wake() {
    this.waker.wake();
  }

  /**
   * Stops claiming, lets attempts in flight finish for up to `graceMs`, then aborts the rest and
   * releases their leases so another process (or the next start) takes them at once.
   */
  async stop(graceMs: number) {
    // A claim under way when stopping began: its deliveries are queued once it returns.
    await this.waker.stop();
    // Claimed but never sent: released at once for another process or the next start.
    const unsent = [...this.expired.splice(0)];
    for (const slots of this.endpoints.values()) unsent.push(...slots.queue.splice(0));
    this.ready = [];
    this.queued = 0;
    await releaseDeliveries({ sql: this.sql, claims: unsent });
    if (this.unfinished.size) {
      await settleWithin(this.unfinished, graceMs);
      this.sender.abortAll();
      await Promise.all(this.unfinished);
    }
    this.sender.close();
  }

  /** Claims due deliveries while there is room for them; true when none was claimable (idle). */
  private async claimAndSend(): Promise<boolean> {
    let idle = false;
    for (;;) {
      // Claimed ahead of the slots: at most two rounds of them waiting in all.
      const limit = Math.min(2 * this.concurrency, 3 * this.concurrency - this.inFlight - this.queued);
      if (!this.running || limit <= 0) break;
      const claimedAt = performance.now();
      const claimed = await claimDeliveries({ sql: this.sql, limit, leaseSeconds: this.leaseMs / 1000, room: this.rooms(), defaultRoom: 2 * this.perEndpoint });
      const startBy = claimedAt + this.leaseMs - this.options.timeoutMs - RECORD_MARGIN_MS;
      for (const delivery of claimed) this.enqueue({ ...delivery, startBy });
      this.pump();
      idle = claimed.length === 0;
      // Fewer than asked for, and no endpoint's room cut the claim short: nothing more is due.
      // (Slots coming free claim again once the look-ahead has run low: in batches.)
      if (idle || (claimed.length < limit && ![...this.rooms().values()].some((room) => room <= 0))) break;
    }
    return idle;
  }

  /**
   * How many deliveries an endpoint may hold here (in flight and waiting): its slots, plus as
   * many as its recent pace sends in half the time a delivery may wait (`timeoutMs`), between one
   * round of its slots (a slow or new endpoint) and MAX_AHEAD_ROUNDS rounds (a fast one).
   */
  private aheadOf(slots: EndpointSlots | undefined) {
    const rounds = slots?.durationMs == null ? 1 : Math.floor(this.options.timeoutMs / 2 / Math.max(slots.durationMs, 1));
    return this.perEndpoint * (1 + Math.min(Math.max(rounds, 1), MAX_AHEAD_ROUNDS));
  }

  /** Each known endpoint's room for more claims; idle ones are forgotten once there are many. */
  private rooms() {
    const room = new Map<number, number>();
    for (const slots of this.endpoints.values()) {
      if (slots.inFlight === 0 && slots.queue.length === 0 && this.endpoints.size > 1000) this.endpoints.delete(slots.id);
      else room.set(slots.id, this.aheadOf(slots) - slots.inFlight - slots.queue.length);
    }
    return room;
  }

  private enqueue(delivery: Queued) {
    let slots = this.endpoints.get(delivery.endpointId);
    if (!slots) {
      slots = { id: delivery.endpointId, inFlight: 0, queue: [], durationMs: null, ready: false };
      this.endpoints.set(slots.id, slots);
    }
    slots.queue.push(delivery);
    this.queued++;
    this.markReady(slots);
  }

  private markReady(slots: EndpointSlots) {
    if (slots.ready || !slots.queue.length || slots.inFlight >= this.perEndpoint) return;
    slots.ready = true;
    this.ready.push(slots);
  }

  /** Starts waiting deliveries while the process has free slots, one endpoint after another. */
  private pump() {
    while (this.running && this.inFlight < this.concurrency && this.ready.length) {
      const slots = this.ready.shift()!;
      slots.ready = false;
      const delivery = slots.queue.shift()!;
      this.queued--;
      if (performance.now() > delivery.startBy) this.expire(delivery);
      else this.track(slots, delivery);
      this.markReady(slots);
    }
  }

  /**
   * A delivery that waited so long that its lease might run out before its attempt ended: given
   * back unsent (another process could otherwise take it while it is still in flight here).
   */
  private expire(delivery: Queued) {
    this.expired.push(delivery);
    if (this.expired.length > 1) return;
    const released: Promise<void> = Promise.resolve()
      .then(() => releaseDeliveries({ sql: this.sql, claims: this.expired.splice(0) }))
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'webhook deliveries could not be released; their leases will run out'))
      .finally(() => {
        this.unfinished.delete(released);
        this.wake();
      });
    this.unfinished.add(released);
  }

  private track(slots: EndpointSlots, delivery: Queued) {
    slots.inFlight++;
    this.inFlight++;
    let freed = false;
    // The slot is free once the receiver answered; the result is written meanwhile (group commit).
    const free = (durationMs: number | null) => {
      if (freed) return;
      freed = true;
      slots.inFlight--;
      this.inFlight--;
      if (durationMs !== null) slots.durationMs = slots.durationMs === null ? durationMs : 0.8 * slots.durationMs + 0.2 * durationMs;
      this.markReady(slots);
      this.pump();
      // Claims in batches, not one by one: when this endpoint's look-ahead (or the process's) has run low.
      if (slots.queue.length <= (this.aheadOf(slots) - this.perEndpoint) / 2) this.wake();
    };
    const done: Promise<void> = this.attempt(delivery, free)
      .catch((error: unknown) => this.options.log.warn({ err: error, deliveryId: delivery.id }, 'webhook attempt could not be recorded'))
      .finally(() => {
        free(null);
        this.unfinished.delete(done);
      });
    this.unfinished.add(done);
  }

  private async attempt(delivery: Queued, free: (durationMs: number | null) => void) {
    if (delivery.withheld) {
      free(null);
      await withholdDelivery({ sql: this.sql, delivery });
      return;
    }
    const timestamp = new Date();
    const secrets = [delivery.secret];
    if (delivery.previousSecret && delivery.previousSecretUntil && Date.parse(delivery.previousSecretUntil) > timestamp.getTime()) secrets.push(delivery.previousSecret);
    const headers = {
      'webhook-id': delivery.eventId,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signatureHeader(secrets, delivery.eventId, timestamp, delivery.body),
    };
    const outcome = await this.sender.send({ endpointId: delivery.endpointId, url: delivery.url, headers, body: delivery.body, at: timestamp });
    free(outcome.aborted ? null : outcome.durationMs);
    if (outcome.aborted) {
      // Shutting down: not an attempt of the receiver's making; the next process sends it again.
      await releaseDeliveries({ sql: this.sql, claims: [delivery] });
      return;
    }
    await this.record(delivery, outcome);
  }

  /**
   * Queues a finished attempt for recording. Attempts finishing while a write is under way are
   * written together by the next one (group commit): one statement per batch under load, and no
   * added wait when idle.
   */
  private record(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
    const { schedule } = this.options;
    const succeeded = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const gone = outcome.statusCode === 410;
    const now = Date.now();
    const round = delivery.round + 1;
    let status: Result['status'] = succeeded ? 'succeeded' : 'pending';
    let nextAttemptAt = now;
    if (!succeeded) {
      const delay = retryDelay({ schedule, round, statusCode: outcome.statusCode, retryAfterMs: outcome.retryAfterMs });
      if (delay === null) status = 'failed';
      else nextAttemptAt = now + delay;
    }
    if (attempted.hasSubscribers) attempted.publish({ db: this.db.prisma, succeeded, status });
    return new Promise((resolve, reject) => {
      this.results.push({ delivery, outcome, succeeded, gone, status, round, nextAttemptAt, resolve, reject });
      if (!this.writing) void this.writeResults();
    });
  }

  private async writeResults() {
    this.writing = true;
    while (this.results.length) {
      const batch = this.results.splice(0, 200);
      // A failed batch (a lost connection, a deadlock between processes' endpoint updates) is
      // written again row by row, so one bad result cannot drop the others (they would be sent again).
      for (const part of await this.writeOrSplit(batch)) {
        for (const r of part.results) {
          if (part.error) r.reject(part.error);
          else {
            if (part.moved.has(r.delivery.id) && r.status === 'pending') this.waker.wakeAt(r.nextAttemptAt);
            r.resolve();
          }
        }
      }
    }
    this.writing = false;
  }

  private async writeOrSplit(batch: Result[]): Promise<{ results: Result[]; moved: Set<number>; error?: unknown }[]> {
    try {
      const { moved, disabled } = await recordAttempts({ sql: this.sql, batch, disableAfterMs: this.options.disableAfterMs });
      for (const d of disabled) this.options.log.info({ endpointId: d.endpointId, reason: d.reason }, 'webhook endpoint disabled');
      return [{ results: batch, moved }];
    } catch (error) {
      if (batch.length === 1) return [{ results: batch, moved: new Set(), error }];
      const parts = [];
      for (const r of batch) parts.push(...(await this.writeOrSplit([r])));
      return parts;
    }
  }
}
