/**
 * Waits until every one of `pending` has settled, or `graceMs` has passed, whichever is first: how
 * long an outbox worker that is stopping lets its sends in flight finish.
 */
export async function settleWithin(pending: Set<Promise<void>>, graceMs: number): Promise<void> {
  if (!pending.size) return;
  let timeout: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(pending), new Promise((resolve) => (timeout = setTimeout(resolve, graceMs)))]);
  clearTimeout(timeout);
}

export interface OutboxWakerOptions {
  /**
   * One look at the outbox: claims what is due and starts sending it. Returns true when it found
   * nothing more to claim (then `nextDue` is asked when to look again).
   */
  look: () => Promise<boolean>;
  /** When the earliest waiting row can next be claimed (a retry falling due, a lease running out), or null. */
  nextDue: () => Promise<number | null>;
  /** Looks at least this often, whoever else wakes it (other processes' commits are seen so). */
  pollMs: number;
  /** A look that failed (the database away): logged; the poll looks again. */
  onError: (error: unknown) => void;
}

/**
 * When an outbox worker (the webhook dispatcher, the mail worker) looks for due rows: at once when
 * woken by this process's commits, when the next row falls due, and at least every `pollMs`. Never
 * two looks at once: a wake during a look runs another right after it, so a commit that lands while
 * a look reads is not left to the poll.
 */
export class OutboxWaker {
  private running = false;
  private looking = false;
  private again = false;
  private current: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private timerDue = Infinity;

  constructor(private readonly options: OutboxWakerOptions) {}

  /** Between start() and stop(). */
  get isRunning() {
    return this.running;
  }

  start() {
    if (this.running) return;
    this.running = true;
    this.wake();
  }

  /** Look now (or right after the look under way). */
  wake() {
    if (!this.running) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    this.current = this.run();
  }

  /** Stops looking; resolves once a look under way has returned. */
  async stop() {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // Else a start() after this would take every wakeAt for later than that timer as already planned.
    this.timerDue = Infinity;
    await this.current;
  }

  /** Looks again at `at`, unless a look is already due sooner. */
  wakeAt(at: number) {
    if (!this.running || at >= this.timerDue) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerDue = Infinity;
      this.wake();
      // A few ms late on purpose: a timer may fire a little before the wall clock reaches `at`, and
      // a claim then would find the row not yet due and leave it to the next poll.
    }, Math.max(0, at - Date.now()) + 10);
    this.timer.unref();
  }

  private async run() {
    this.looking = true;
    let idle = false;
    try {
      do {
        this.again = false;
        idle = await this.options.look();
      } while (this.again && this.running);
      // Nothing claimable now: look again when the next row falls due, not only at the next poll.
      if (idle && this.running) {
        const next = await this.options.nextDue();
        if (next !== null) this.wakeAt(next);
      }
    } catch (error) {
      this.options.onError(error);
    } finally {
      this.looking = false;
      this.wakeAt(Date.now() + this.options.pollMs);
      // Woken by a commit after the last look (while the next due time was read): that commit's
      // rows would otherwise wait for the poll (seen in CI: one of twenty, 60 s late).
      if (this.again && this.running) this.wake();
    }
  }
}
