import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** At most this many "Forgot password" requests wait for their lookup and mail; more are dropped (the answer is the same). */
export const RESET_QUEUE_LIMIT = 200;
/** How many run at once: the work is a lookup, a short transaction and a wake of the mail worker. */
const RESET_QUEUE_CONCURRENCY = 2;

/**
 * The work of "Forgot password" (the lookup, the link, the mail), done after the answer is sent so
 * the answer takes the same time whether or not the address has an account, and does not tell a
 * stranger which addresses have one. In process and in memory: a request whose work had not run
 * when the process died is lost, and that is acceptable — nobody was told a mail was sent for
 * sure, and the person asks again. Bounded:
 * past RESET_QUEUE_LIMIT waiting jobs a new one is dropped (logged at warn, without the address),
 * so a flood of requests cannot grow memory. A job's error is logged, never seen by the client.
 * On close, jobs already queued are finished (within `closeMs`); what is left then is dropped.
 */
export class ResetQueue {
  private readonly waiting: (() => Promise<void>)[] = [];
  private running = 0;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly log: FastifyBaseLogger, private readonly limit = RESET_QUEUE_LIMIT) {}

  /** Queues a job; false when it was dropped (queue full or closing). Never throws. */
  push(job: () => Promise<void>): boolean {
    if (this.closed || this.waiting.length >= this.limit) {
      this.log.warn({ waiting: this.waiting.length, closing: this.closed }, 'password reset request dropped: too many waiting (the answer was the same 202)');
      return false;
    }
    this.waiting.push(job);
    // Started on a later turn of the event loop: nothing of the work runs before the answer is on its way.
    setImmediate(() => this.drain());
    return true;
  }

  /** Jobs queued or running. */
  get pending(): number {
    return this.waiting.length + this.running;
  }

  /** Resolves when nothing is queued or running (at once if so now). */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Takes no more jobs; waits up to closeMs for the queued ones, then drops what is left. */
  async close(closeMs: number): Promise<void> {
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), closeMs);
    });
    const outcome = await Promise.race([this.idle().then(() => 'done' as const), late]);
    clearTimeout(timer);
    if (outcome === 'late') {
      this.log.warn({ dropped: this.waiting.length, running: this.running }, 'closing: password reset requests not done in time are dropped');
      this.waiting.length = 0;
    }
  }

  private drain() {
    while (this.running < RESET_QUEUE_CONCURRENCY && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      this.running++;
      void job()
        .catch((error: unknown) => this.log.error({ err: error }, 'password reset request failed (the client had its 202)'))
        .finally(() => {
          this.running--;
          this.drain();
          if (this.pending === 0) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            for (const resolve of waiters) resolve();
          }
        });
    }
  }
}

/** One queue per server (the route is registered in an encapsulated context, so it is keyed by the HTTP server they share). */
const queues = new WeakMap<object, ResetQueue>();

export function registerResetQueue(app: FastifyInstance, queue: ResetQueue) {
  queues.set(app.server, queue);
}

/** Resolves when this server's queued "Forgot password" work is done (tests wait on it before counting mail). */
export function resetsIdle(app: FastifyInstance): Promise<void> {
  return queues.get(app.server)?.idle() ?? Promise.resolve();
}
