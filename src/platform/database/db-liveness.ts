/**
 * Tells "the database is not answering" from "the database is busy", for the PostgreSQL pool.
 *
 * Busy: statements wait for a connection or run long, but the server keeps answering (some
 * statement completes, or a probe on a connection of its own answers). Requests then queue, up to
 * the pool's wait bound, and none is shed for it.
 * Not answering: work has been outstanding with no answer from the server at all, and a probe
 * (`SELECT 1` on the liveness connection) stays unanswered for `probeTimeoutMs` too, or cannot
 * connect. Then every statement waiting on the server fails at once, whatever request it belongs
 * to and however many statements that request ran before, and new ones fail without being sent,
 * until the server answers again. So a request's whole wait on a database that stopped answering
 * is one deadline (at most `suspectAfterMs` + `probeTimeoutMs` after its statement was sent, plus
 * a tick), not a budget per statement that adds up along a request.
 *
 * DatabaseLiveness is pure logic on the times it is given (tests drive it with made-up clocks);
 * db.ts feeds it the pool's events, and watchLiveness() below ticks it and runs its probes.
 */
import pg from 'pg';

export interface LivenessOptions {
  /** Work outstanding this long while the server answered nothing starts a probe. */
  suspectAfterMs: number;
  /** A probe unanswered this long, nothing else answered meanwhile: the database is not answering. */
  probeTimeoutMs: number;
  /** While not answering, a new probe at most this often. */
  reprobeEveryMs: number;
  /** A probe still unanswered after this long: its connection is dropped and a new one tried. */
  staleProbeMs: number;
}

/** What the pool should do after a tick. */
export type LivenessAction = 'none' | 'probe' | 'reconnect-probe';

export class DatabaseLiveness {
  private answeredAt: number;
  private readonly outstanding = new Map<object, { since: number; fail: () => void }>();
  private probeSince: number | undefined;
  private lastProbeAt = Number.NEGATIVE_INFINITY;
  private probeFailedAt: number | undefined;
  /** True from the moment the server is found not answering until it answers again. */
  down = false;
  /** When `down` last became true (for logs and the chaos report). */
  downSince: number | undefined;

  constructor(
    readonly options: LivenessOptions,
    now: number,
  ) {
    this.answeredAt = now;
  }

  /** Work waiting on the server (a statement sent, a wait for a connection); `fail` ends it at once. */
  begin(work: object, now: number, fail: () => void) {
    this.outstanding.set(work, { since: now, fail });
  }

  /** The work is over; `answered` when the server answered it (rows, or an error of its own). */
  settle(work: object, now: number, answered: boolean) {
    this.outstanding.delete(work);
    if (answered) this.answered(now);
  }

  /** The server answered something: it is alive. */
  answered(now: number) {
    if (now > this.answeredAt) this.answeredAt = now;
    this.down = false;
    this.downSince = undefined;
  }

  probeStarted(now: number) {
    this.probeSince = now;
    this.lastProbeAt = now;
  }

  probeAnswered(now: number) {
    this.probeSince = undefined;
    this.probeFailedAt = undefined;
    this.answered(now);
  }

  /** The probe could not reach the server (refused, connection lost, connect timed out). */
  probeFailed(now: number) {
    this.probeSince = undefined;
    this.probeFailedAt = now;
  }

  /** How many pieces of work are waiting on the server. */
  get waiting(): number {
    return this.outstanding.size;
  }

  /**
   * Decides, at `now`: whether the database stopped answering (then every outstanding piece of
   * work is failed here), and whether a probe should be sent.
   */
  tick(now: number): LivenessAction {
    const { suspectAfterMs, probeTimeoutMs, reprobeEveryMs, staleProbeMs } = this.options;
    const quiet = now - this.answeredAt;
    if (!this.down) {
      const failed = this.probeFailedAt !== undefined && this.probeFailedAt >= this.answeredAt;
      const unanswered = this.probeSince !== undefined && now - this.probeSince >= probeTimeoutMs && quiet >= probeTimeoutMs;
      if (failed || unanswered) this.goDown(now);
    }
    if (this.down) {
      this.failOutstanding();
      if (this.probeSince !== undefined) return now - this.probeSince >= staleProbeMs ? 'reconnect-probe' : 'none';
      return now - this.lastProbeAt >= reprobeEveryMs ? 'probe' : 'none';
    }
    if (this.probeSince !== undefined) return 'none';
    if (quiet < suspectAfterMs || now - this.lastProbeAt < suspectAfterMs) return 'none';
    for (const { since } of this.outstanding.values()) {
      if (now - since >= suspectAfterMs) return 'probe';
    }
    return 'none';
  }

  private goDown(now: number) {
    this.down = true;
    this.downSince = now;
  }

  private failOutstanding() {
    const all = [...this.outstanding.values()];
    this.outstanding.clear();
    for (const { fail } of all) fail();
  }
}

/** The error every statement gets while the database is not answering (mapped to 503). */
export class DatabaseNotAnsweringError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor() {
    super('database not answering');
    this.name = 'DatabaseNotAnsweringError';
  }
}

/** How often the pool's liveness is ticked. */
const TICK_MS = 100;

/** The liveness settings for a probe timeout (DATABASE_PROBE_TIMEOUT_MS). */
export function livenessOptions(probeTimeoutMs: number): LivenessOptions {
  return {
    suspectAfterMs: Math.min(200, probeTimeoutMs),
    probeTimeoutMs,
    reprobeEveryMs: 500,
    // Longer than a freeze worth waiting out on the same connection: a frozen server answers the
    // probe it holds as soon as it wakes, a new connection would first have to be opened.
    staleProbeMs: 15_000,
  };
}

/**
 * Ticks `liveness` and runs the probes it asks for: `SELECT 1` on a connection of its own (one
 * more than the pool), opened when first needed and kept.
 */
export function watchLiveness(liveness: DatabaseLiveness, url: string): { stop(): Promise<void> } {
  let probe: pg.Client | undefined;
  const open = async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: liveness.options.probeTimeoutMs });
    client.on('error', () => {
      if (probe === client) probe = undefined;
    });
    await client.connect();
    return client;
  };
  const drop = (client: pg.Client | undefined) => {
    if (probe === client) probe = undefined;
    void client?.end().catch(() => {});
  };
  let sent = 0;
  const send = async (fresh: boolean) => {
    const mine = ++sent;
    if (fresh) drop(probe);
    liveness.probeStarted(performance.now());
    let client = probe;
    try {
      try {
        client ??= probe = await open();
        await client.query('SELECT 1');
      } catch (error) {
        // A kept connection the server closed meanwhile (a restart, an idle timeout): one new try.
        if (client === undefined || error instanceof pg.DatabaseError) throw error;
        drop(client);
        client = probe = await open();
        await client.query('SELECT 1');
      }
      liveness.probeAnswered(performance.now());
    } catch (error) {
      if (error instanceof pg.DatabaseError) return void liveness.probeAnswered(performance.now());
      drop(client);
      // A probe given up for a newer one (its connection dropped) speaks for nothing.
      if (mine === sent) liveness.probeFailed(performance.now());
    }
  };
  // Decided after the loop has read what arrived meanwhile (setImmediate runs after I/O): a
  // timer that fires late after a long synchronous block must not take answers sitting unread
  // in the sockets for silence.
  let opening = false;
  const decide = () => {
    // The probe's connection is opened as soon as the pool has work, not when the first probe is
    // due: opening it then would take a connect (up to the probe timeout) out of the deadline.
    if (!probe && !opening && liveness.waiting > 0 && !liveness.down) {
      opening = true;
      open()
        .then((client) => {
          if (probe) void client.end().catch(() => {});
          else probe = client;
        }, () => {})
        .finally(() => (opening = false));
    }
    const action = liveness.tick(performance.now());
    if (action !== 'none') void send(action === 'reconnect-probe');
  };
  const timer = setInterval(() => setImmediate(decide), TICK_MS).unref();
  return {
    async stop() {
      clearInterval(timer);
      const client = probe;
      probe = undefined;
      await client?.end().catch(() => {});
    },
  };
}
