/**
 * How far behind the event loop has been, over the last few seconds: the mean lateness of a timer
 * that ticks every `everyMs`, over the ticks of the last `windowMs`.
 *
 * Why not one half-second sample, as @fastify/under-pressure keeps: its delay is recorded once per
 * loop iteration, so after two long iterations in a row (32 board fetches finishing together on a
 * CPU shared with other processes: over a second each) a sample holds nothing but a late record,
 * and every request is shed until the next one -- 510 requests of one bench run's 32-client board
 * fetch, answered 503 within 1.2 s by a process that served the rest in under 3 s. Over a window
 * of seconds, such an episode is a few late ticks among the punctual ones around it; a loop that
 * stays behind (every tick late by more than the limit, as when each request blocks it in turn)
 * is over the limit once it has been so for most of the window.
 *
 * Pure logic on the times it is given (tests drive it with made-up clocks); overload.ts ticks it.
 */
export class LoopLag {
  private readonly ticks: { at: number; late: number }[] = [];
  private due: number;

  constructor(
    readonly everyMs: number,
    readonly windowMs: number,
    now: number,
  ) {
    this.due = now + everyMs;
  }

  /** The timer fired at `now`; the next is due `everyMs` later (as setInterval reschedules). */
  tick(now: number) {
    this.ticks.push({ at: now, late: Math.max(0, now - this.due) });
    this.due = now + this.everyMs;
    while (this.ticks.length > 0 && this.ticks[0]!.at <= now - this.windowMs) this.ticks.shift();
  }

  /**
   * Mean lateness over the window, in ms. A tick that is overdue right now counts as one more
   * late tick: a request handled just as a long block ends, before the timer's callback has run,
   * sees that block.
   */
  mean(now: number): number {
    const recent = this.ticks.filter((t) => t.at > now - this.windowMs);
    const overdue = now - this.due;
    const lateness = recent.map((t) => t.late);
    if (overdue > 0) lateness.push(overdue);
    if (lateness.length === 0) return 0;
    return lateness.reduce((a, b) => a + b, 0) / lateness.length;
  }

  /** The lateness of the last tick (for arming: is the loop calm now?). */
  last(): number {
    return this.ticks.at(-1)?.late ?? 0;
  }
}
