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
  private readonly inFlight = new Map<number, { abort: AbortController; done: Promise<void> }>();
  private running = false;
  private claiming = false;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private timerDue = Infinity;

  constructor(private readonly db: PrismaClient, private readonly options: DispatcherOptions) {
    this.concurrency = options.concurrency ?? 16;
    // Long enough for an attempt to finish and its result to be written.
    this.leaseMs = options.timeoutMs + 5000;
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
    void this.claimAndSend();
  }

  /**
   * Stops claiming, lets attempts in flight finish for up to `graceMs`, then aborts the rest and
   * releases their leases so another process (or the next start) takes them at once.
   */
  async stop(graceMs: number) {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pending = [...this.inFlight.values()];
    if (pending.length) {
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(pending.map((p) => p.done)),
        new Promise((resolve) => {
          timeout = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timeout);
      for (const p of this.inFlight.values()) p.abort.abort();
      await Promise.all([...this.inFlight.values()].map((p) => p.done));
    }
    this.sender.close();
  }

  private async claimAndSend() {
    this.claiming = true;
    try {
      do {
        this.again = false;
        while (this.running && this.inFlight.size < this.concurrency) {
          const claimed = await this.claim(this.concurrency - this.inFlight.size);
          for (const delivery of claimed) this.track(delivery);
          if (claimed.length === 0) break;
        }
      } while (this.again && this.running);
    } catch (error) {
      this.options.log.warn({ err: error }, 'webhook dispatcher could not claim deliveries; retrying');
    } finally {
      this.claiming = false;
      this.wakeAt(Date.now() + this.options.pollMs);
    }
  }

  /** Looks again at `at` (or sooner, if already due sooner): a retry this process scheduled. */
  private wakeAt(at: number) {
    if (!this.running || at >= this.timerDue) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerDue = Infinity;
      this.wake();
    }, Math.max(0, at - Date.now()));
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

  private track(delivery: Claimed) {
    const abort = new AbortController();
    const done = this.attempt(delivery, abort.signal)
      .catch((error: unknown) => this.options.log.warn({ err: error, deliveryId: delivery.id }, 'webhook attempt could not be recorded'))
      .finally(() => {
        this.inFlight.delete(delivery.id);
        // A slot is free: there may be more due deliveries waiting.
        this.wake();
      });
    this.inFlight.set(delivery.id, { abort, done });
  }

  private async attempt(delivery: Claimed, signal: AbortSignal) {
    const timestamp = new Date();
    const secrets = [delivery.secret];
    if (delivery.previousSecret && delivery.previousSecretUntil && delivery.previousSecretUntil > timestamp) secrets.push(delivery.previousSecret);
    const headers = {
      'webhook-id': delivery.eventId,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signatureHeader(secrets, delivery.eventId, timestamp, delivery.body),
    };
    const outcome = await this.sender.send({ url: delivery.url, headers, body: delivery.body, signal });
    if (signal.aborted) {
      // Shutting down: not an attempt of the receiver's making; the next process sends it again.
      await this.db.webhookDelivery.updateMany({ where: { id: delivery.id, leaseUntil: delivery.leaseUntil }, data: { leaseUntil: null } });
      return;
    }
    await this.record(delivery, outcome);
  }

  /** Writes the attempt and moves the delivery (and, when it says so, the endpoint) on. */
  private async record(delivery: Claimed, outcome: AttemptOutcome) {
    const { schedule, disableAfterMs } = this.options;
    const succeeded = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const gone = outcome.statusCode === 410;
    const now = new Date();
    const round = delivery.round + 1;
    let status: 'succeeded' | 'failed' | 'pending' = succeeded ? 'succeeded' : 'pending';
    let nextAttemptAt = now;
    if (!succeeded) {
      if (gone || round > schedule.length) status = 'failed';
      else {
        const honoured = outcome.statusCode === 429 || outcome.statusCode === 503 ? (outcome.retryAfterMs ?? 0) : 0;
        nextAttemptAt = new Date(now.getTime() + Math.max(schedule[round - 1]!, honoured));
      }
    }
    const moved = await this.db.$transaction(async (tx) => {
      await tx.webhookAttempt.create({
        data: {
          deliveryId: delivery.id,
          startedAt: outcome.startedAt,
          durationMs: outcome.durationMs,
          statusCode: outcome.statusCode,
          error: outcome.error,
          responseExcerpt: outcome.excerpt,
          succeeded,
        },
      });
      const fenced = await tx.webhookDelivery.updateMany({
        where: { id: delivery.id, leaseUntil: delivery.leaseUntil },
        data: { status, round, nextAttemptAt, leaseUntil: null },
      });
      if (fenced.count === 0) return false;
      if (succeeded) {
        await tx.webhookEndpoint.updateMany({ where: { id: delivery.endpointId, failingSince: { not: null } }, data: { failingSince: null } });
        return true;
      }
      if (gone) {
        await tx.webhookEndpoint.updateMany({
          where: { id: delivery.endpointId, enabled: true },
          data: { enabled: false, disabledReason: 'gone', disabledAt: now },
        });
        this.options.log.info({ endpointId: delivery.endpointId }, 'webhook endpoint answered 410 Gone: disabled');
        return true;
      }
      await tx.webhookEndpoint.updateMany({ where: { id: delivery.endpointId, failingSince: null }, data: { failingSince: outcome.startedAt } });
      const disabled = await tx.webhookEndpoint.updateMany({
        where: { id: delivery.endpointId, enabled: true, failingSince: { lte: new Date(now.getTime() - disableAfterMs) } },
        data: { enabled: false, disabledReason: 'failing', disabledAt: now },
      });
      if (disabled.count) this.options.log.info({ endpointId: delivery.endpointId }, 'webhook endpoint failing for WEBHOOK_DISABLE_AFTER: disabled');
      return true;
    });
    if (moved && status === 'pending') this.wakeAt(nextAttemptAt.getTime());
  }
}
