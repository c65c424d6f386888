/**
 * The cursor passes sooner by what PostgreSQL says has ended. Each look notes the highest activity
 * id its statement's snapshot sees and the xid it is given in that statement (pg_current_xact_id:
 * above every xid handed out before, so above that of every transaction that held an unseen
 * activity then). An id the look saw the highest of is passed once a look HORIZON_SETTLE_MS later
 * has itself ended below the xmin of the current one: every transaction that held an id at most
 * that high then has ended, and what it committed was read. The wait covers the one transaction
 * an xid does not bound: one inside the INSERT that took its id, before its first write gave it
 * an xid. (Not pg_snapshot_xmax: it is the last finished xid + 1, and a running transaction can
 * hold an xid above it.) Without this, at 250 changes a second each look re-read 30,000 notified
 * activities above the cursor (16 ms of the database's time, four times a second).
 */
const HORIZON_SETTLE_MS = 5_000;
/** Horizons kept: at most one a second (looks come faster while a backlog is paged), five minutes of them; SETTLE_SECONDS (notify-activities.ts) covers what is older. */
const MAX_HORIZONS = 300;

/** What one look saw: the highest activity id, its own xid, and when. */
export interface Horizon {
  maxId: number;
  xid: bigint;
  at: number;
}

/**
 * The looks this process made, for how far the notifier's cursor may pass (see HORIZON_SETTLE_MS).
 * Kept in this process only: another process passes the cursor by its own looks, or by SETTLE_SECONDS.
 */
export class CursorHorizons {
  private horizons: Horizon[] = [];

  /** Notes a look's horizon (one a second at most). */
  remember(horizon: Horizon) {
    const last = this.horizons.at(-1);
    if (last && horizon.at - last.at < 1000) return;
    this.horizons.push(horizon);
    if (this.horizons.length > MAX_HORIZONS) this.horizons.shift();
  }

  /**
   * The highest id the cursor may pass now (0: none): the newest look whose transaction has ended
   * below `xminNow` settles every horizon noted HORIZON_SETTLE_MS or more before it (see
   * HORIZON_SETTLE_MS). Those are dropped but the newest of them.
   */
  settled(xminNow: bigint): number {
    let ended: number | undefined;
    for (const h of this.horizons) if (h.xid < xminNow) ended = h.at;
    if (ended === undefined) return 0;
    let settled = 0;
    let used = -1;
    for (const [i, h] of this.horizons.entries()) {
      if (ended - h.at < HORIZON_SETTLE_MS) break;
      settled = Math.max(settled, h.maxId);
      used = i;
    }
    if (used > 0) this.horizons.splice(0, used);
    return settled;
  }
}
