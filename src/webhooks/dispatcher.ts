import { channel } from 'node:diagnostics_channel';
import type { PrismaClient } from '../platform/db.js';
import { createSender, type AttemptOutcome, type Sender } from './send-attempt.js';
import { signatureHeader } from './signing.js';

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
  log: { warn(o: object, m: string): void; info(o: object, m: string): void };
}

/** Each finished attempt, for metrics (src/platform/metrics.ts): `{ db, succeeded, status }`. */
const attempted = channel('taskboard:webhook-attempt');

/** A finished attempt waiting to be written, with what it does to its delivery. */
interface Result {
  delivery: Claimed;
  outcome: AttemptOutcome;
  succeeded: boolean;
  gone: boolean;
  status: 'succeeded' | 'failed' | 'pending';
  round: number;
  nextAttemptAt: number;
  resolve(): void;
  reject(error: unknown): void;
}

interface Claimed {
  id: number;
  eventId: string;
  round: number;
  leaseUntil: Date;
  body: string;
  endpointId: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
}

/**
 * Sends the outbox's deliveries. Every app process runs one: it claims due deliveries with
 * `FOR UPDATE SKIP LOCKED` under a lease (so processes never take the same one, and a crashed
 * process's claims run out and are taken again), is woken at once by this process's commits,
 * and otherwise looks every `pollMs`. Results are written under the lease as a fencing token:
 * an attempt that outlived its lease records its attempt but no longer moves the delivery.
 */
export class WebhookDispatcher {
  private readonly sender: Sender;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  /** Attempts being sent: the slots `concurrency` counts. */
  private readonly inFlight = new Map<number, AbortController>();
  /** Attempts not yet recorded (sending, or waiting for their result's write). */
  private readonly unfinished = new Set<Promise<void>>();
  /** Claimed deliveries waiting for a slot: claiming ahead keeps the slots busy while a claim runs. */
  private queue: Claimed[] = [];
  private running = false;
  private claiming = false;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private timerDue = Infinity;
  private readonly results: Result[] = [];
  private writing = false;
  private claimLoop: Promise<void> = Promise.resolve();

  constructor(private readonly db: PrismaClient, private readonly options: DispatcherOptions) {
    this.concurrency = options.concurrency ?? 16;
    // Long enough for an attempt to finish and its result to be written.
    // Long enough for a claimed delivery to wait in the queue for one attempt to finish (the
    // queue holds at most `concurrency`), be attempted itself, and have its result written.
    this.leaseMs = 2 * options.timeoutMs + 5000;
    this.sender = createSender({ timeoutMs: options.timeoutMs, allowPrivate: options.allowPrivate, maxSockets: this.concurrency });
  }

  start() {
    if (this.running) return;
    this.running = true;
    this.wake();
  }

  /** A change committed events: look for due deliveries now. */
  wake() {
    if (!this.running) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claimLoop = this.claimAndSend();
  }

  /**
   * Stops claiming, lets attempts in flight finish for up to `graceMs`, then aborts the rest and
   * releases their leases so another process (or the next start) takes them at once.
   */
  async stop(graceMs: number) {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // A claim under way when stopping began: its deliveries are queued once it returns.
    await this.claimLoop;
    // Claimed but never sent: released at once for another process or the next start.
    const unsent = this.queue.splice(0);
    if (unsent.length) {
      await this.db.$executeRaw`
        UPDATE "WebhookDelivery" SET "leaseUntil" = NULL
        WHERE id = ANY(${unsent.map((d) => d.id)}::int[]) AND "leaseUntil" = ANY(${unsent.map((d) => d.leaseUntil.toISOString())}::timestamptz[])`;
    }
    if (this.unfinished.size) {
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(this.unfinished),
        new Promise((resolve) => {
          timeout = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timeout);
      for (const abort of this.inFlight.values()) abort.abort();
      await Promise.all(this.unfinished);
    }
    this.sender.close();
  }

  private async claimAndSend() {
    this.claiming = true;
    let idle = false;
    try {
      do {
        this.again = false;
        while (this.running && this.inFlight.size + this.queue.length < 2 * this.concurrency) {
          const claimed = await this.claim(2 * this.concurrency - this.inFlight.size - this.queue.length);
          this.queue.push(...claimed);
          this.pump();
          idle = claimed.length === 0;
          if (idle) break;
        }
      } while (this.again && this.running);
      // Nothing due now: look again when the next delivery falls due (a retry of any process, a
      // lease running out), not only at the next poll.
      if (idle && this.running) {
        const next = await this.nextDue();
        if (next !== null) this.wakeAt(next);
      }
    } catch (error) {
      this.options.log.warn({ err: error }, 'webhook dispatcher could not claim deliveries; retrying');
    } finally {
      this.claiming = false;
      this.wakeAt(Date.now() + this.options.pollMs);
    }
  }

  /** When the earliest waiting delivery of an enabled endpoint can next be claimed, or null. */
  private async nextDue(): Promise<number | null> {
    const [row] = await this.db.$queryRaw<{ at: Date | null }[]>`
      SELECT min(GREATEST(d."nextAttemptAt", COALESCE(d."leaseUntil", d."nextAttemptAt"))) AS at
      FROM "WebhookDelivery" d JOIN "WebhookEndpoint" e ON e.id = d."endpointId"
      WHERE d.status = 'pending' AND e.enabled`;
    return row?.at ? row.at.getTime() : null;
  }

  /** Looks again at `at`, unless a look is already due sooner. */
  private wakeAt(at: number) {
    if (!this.running || at >= this.timerDue) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerDue = Infinity;
      this.wake();
      // A few ms late on purpose: a timer may fire a little before the wall clock reaches `at`, and
      // a claim then would find the delivery not yet due and leave it to the next poll.
    }, Math.max(0, at - Date.now()) + 10);
    this.timer.unref();
  }

  private claim(limit: number) {
    const lease = this.leaseMs / 1000;
    return this.db.$queryRaw<Claimed[]>`
      WITH claimed AS (
        UPDATE "WebhookDelivery" SET "leaseUntil" = clock_timestamp() + make_interval(secs => ${lease})
        WHERE id IN (
          SELECT d.id FROM "WebhookDelivery" d JOIN "WebhookEndpoint" e ON e.id = d."endpointId"
          WHERE d.status = 'pending' AND d."nextAttemptAt" <= now() AND (d."leaseUntil" IS NULL OR d."leaseUntil" < now()) AND e.enabled
          ORDER BY d."nextAttemptAt", d.id
          LIMIT ${limit}
          FOR UPDATE OF d SKIP LOCKED
        )
        RETURNING id, "eventId", round, "leaseUntil", "endpointId"
      )
      SELECT c.id, c."eventId", c.round, c."leaseUntil", c."endpointId", ev.body,
             e.url, e.secret, e."previousSecret", e."previousSecretUntil"
      FROM claimed c JOIN "WebhookEvent" ev ON ev.id = c."eventId" JOIN "WebhookEndpoint" e ON e.id = c."endpointId"`;
  }

  /** Starts queued deliveries while slots are free. */
  private pump() {
    while (this.running && this.inFlight.size < this.concurrency && this.queue.length) this.track(this.queue.shift()!);
  }

  private track(delivery: Claimed) {
    const abort = new AbortController();
    // The slot is free once the receiver answered; the result is written meanwhile (group commit).
    const sent = () => {
      if (!this.inFlight.delete(delivery.id)) return;
      this.pump();
      // Claims in batches, not one by one: when the queue has run low, there may be more due.
      if (this.queue.length <= this.concurrency / 2) this.wake();
    };
    const done: Promise<void> = this.attempt(delivery, abort.signal, sent)
      .catch((error: unknown) => this.options.log.warn({ err: error, deliveryId: delivery.id }, 'webhook attempt could not be recorded'))
      .finally(() => {
        sent();
        this.unfinished.delete(done);
      });
    this.inFlight.set(delivery.id, abort);
    this.unfinished.add(done);
  }

  private async attempt(delivery: Claimed, signal: AbortSignal, sent: () => void) {
    const timestamp = new Date();
    const secrets = [delivery.secret];
    if (delivery.previousSecret && delivery.previousSecretUntil && delivery.previousSecretUntil > timestamp) secrets.push(delivery.previousSecret);
    const headers = {
      'webhook-id': delivery.eventId,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signatureHeader(secrets, delivery.eventId, timestamp, delivery.body),
    };
    const outcome = await this.sender.send({ url: delivery.url, headers, body: delivery.body, signal });
    sent();
    if (signal.aborted) {
      // Shutting down: not an attempt of the receiver's making; the next process sends it again.
      await this.db.webhookDelivery.updateMany({ where: { id: delivery.id, leaseUntil: delivery.leaseUntil }, data: { leaseUntil: null } });
      return;
    }
    await this.record(delivery, outcome);
  }

  /**
   * Queues a finished attempt for recording. Attempts finishing while a write is under way are
   * written together by the next one (group commit): one statement per batch under load, and no
   * added wait when idle.
   */
  private record(delivery: Claimed, outcome: AttemptOutcome): Promise<void> {
    const { schedule } = this.options;
    const succeeded = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const gone = outcome.statusCode === 410;
    const now = Date.now();
    const round = delivery.round + 1;
    let status: Result['status'] = succeeded ? 'succeeded' : 'pending';
    let nextAttemptAt = now;
    if (!succeeded) {
      if (gone || round > schedule.length) status = 'failed';
      else {
        const honoured = outcome.statusCode === 429 || outcome.statusCode === 503 ? (outcome.retryAfterMs ?? 0) : 0;
        nextAttemptAt = now + Math.max(schedule[round - 1]!, honoured);
      }
    }
    if (attempted.hasSubscribers) attempted.publish({ db: this.db, succeeded, status });
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
            if (part.moved.has(r.delivery.id) && r.status === 'pending') this.wakeAt(r.nextAttemptAt);
            r.resolve();
          }
        }
      }
    }
    this.writing = false;
  }

  private async writeOrSplit(batch: Result[]): Promise<{ results: Result[]; moved: Set<number>; error?: unknown }[]> {
    try {
      return [{ results: batch, moved: await this.writeBatch(batch) }];
    } catch (error) {
      if (batch.length === 1) return [{ results: batch, moved: new Set(), error }];
      const parts = [];
      for (const r of batch) parts.push(...(await this.writeOrSplit([r])));
      return parts;
    }
  }

  /**
   * One statement for a batch of attempts: each attempt's row; each delivery moved on only while
   * this process's lease still holds it; each endpoint updated only when its state changes (a
   * first failure, a success after failures, a 410, failing for WEBHOOK_DISABLE_AFTER), so the
   * healthy path takes no lock on the endpoint's row. Returns the deliveries it moved.
   */
  private async writeBatch(batch: Result[]): Promise<Set<number>> {
    const now = new Date();
    const disableBefore = new Date(now.getTime() - this.options.disableAfterMs);
    const col = <T>(f: (r: Result) => T) => batch.map(f);
    const iso = (ms: number) => new Date(ms).toISOString();
    const rows = await this.db.$queryRaw<{ id: number | null; disabled: string | null; endpointId: number | null }[]>`
      WITH input AS (
        SELECT * FROM unnest(
          ${col((r) => r.delivery.id)}::int[], ${col((r) => r.delivery.leaseUntil.toISOString())}::timestamptz[], ${col((r) => r.status)}::text[],
          ${col((r) => r.round)}::int[], ${col((r) => iso(r.nextAttemptAt))}::timestamptz[], ${col((r) => r.outcome.startedAt.toISOString())}::timestamptz[],
          ${col((r) => r.outcome.durationMs)}::int[], ${col((r) => r.outcome.statusCode)}::int[], ${col((r) => r.outcome.error)}::text[],
          ${col((r) => r.outcome.excerpt)}::text[], ${col((r) => r.succeeded)}::boolean[], ${col((r) => r.gone)}::boolean[]
        ) AS i(id, lease, status, round, next, started, duration, code, error, excerpt, succeeded, gone)
      ), attempts AS (
        -- A delivery deleted meanwhile (its endpoint was deleted) gets no attempt row. (No row lock
        -- here: the UPDATE below changes the same rows in this statement. A delete racing this
        -- very statement fails it, and the batch is written again row by row.)
        INSERT INTO "WebhookAttempt" ("deliveryId", "startedAt", "durationMs", "statusCode", error, "responseExcerpt", succeeded)
        SELECT i.id, started, duration, code, error, excerpt, succeeded FROM input i JOIN "WebhookDelivery" d ON d.id = i.id
        RETURNING 1
      ), moved AS (
        UPDATE "WebhookDelivery" d
        SET status = i.status::"DeliveryStatus", round = i.round, "nextAttemptAt" = i.next, "leaseUntil" = NULL, "updatedAt" = ${now}
        FROM input i
        WHERE d.id = i.id AND d."leaseUntil" = i.lease
        RETURNING d.id, d."endpointId", i.succeeded, i.gone, i.started
      ), outcome AS (
        SELECT "endpointId", bool_or(succeeded) AS ok, bool_or(gone) AS gone, min(started) FILTER (WHERE NOT succeeded) AS first_failure
        FROM moved GROUP BY "endpointId"
      ), current AS (
        SELECT e.id, e."failingSince", o.ok, o.first_failure,
               (o.gone AND e.enabled) AS gone_now,
               (NOT o.ok AND NOT o.gone AND e.enabled AND COALESCE(e."failingSince", o.first_failure) <= ${disableBefore}) AS failing_now
        FROM "WebhookEndpoint" e JOIN outcome o ON o."endpointId" = e.id
      ), endpoint AS (
        UPDATE "WebhookEndpoint" e
        SET "failingSince" = CASE WHEN c.ok THEN NULL ELSE COALESCE(e."failingSince", c.first_failure) END,
            enabled = e.enabled AND NOT (c.gone_now OR c.failing_now),
            "disabledReason" = CASE WHEN c.gone_now THEN 'gone' WHEN c.failing_now THEN 'failing' ELSE e."disabledReason" END,
            "disabledAt" = CASE WHEN c.gone_now OR c.failing_now THEN ${now} ELSE e."disabledAt" END,
            "updatedAt" = ${now}
        FROM current c
        WHERE e.id = c.id AND ((c.ok AND c."failingSince" IS NOT NULL) OR (NOT c.ok AND c."failingSince" IS NULL) OR c.gone_now OR c.failing_now)
        RETURNING e.id, CASE WHEN c.gone_now OR c.failing_now THEN e."disabledReason" END AS disabled
      )
      SELECT id, NULL AS disabled, NULL::int AS "endpointId" FROM moved
      UNION ALL SELECT NULL, disabled, id FROM endpoint WHERE disabled IS NOT NULL`;
    for (const r of rows) if (r.disabled) this.options.log.info({ endpointId: r.endpointId, reason: r.disabled }, 'webhook endpoint disabled');
    return new Set(rows.filter((r) => r.id !== null).map((r) => r.id!));
  }
}
