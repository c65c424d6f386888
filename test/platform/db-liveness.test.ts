import { describe, expect, it } from 'vitest';
import { DatabaseLiveness, livenessOptions } from '../../src/platform/database/db-liveness.js';
import { isDatabaseUnavailable } from '../../src/platform/errors.js';
import { DatabaseNotAnsweringError } from '../../src/platform/database/db-liveness.js';

// Made-up clocks throughout: what is decided depends on the times handed in, never on the machine.
const options = livenessOptions(1000); // suspect after 200 ms, probe timeout 1 s, re-probe every 0.5 s

function work(liveness: DatabaseLiveness, now: number) {
  const item = { failed: 0 };
  liveness.begin(item, now, () => item.failed++);
  return item;
}

describe('DatabaseLiveness: "not answering" against "busy"', () => {
  it('asks for no probe while statements keep completing, however long the queue', () => {
    const l = new DatabaseLiveness(options, 0);
    // 40 pieces of work wait from t = 0; one completes every 200 ms for 20 s (a busy database).
    for (let i = 0; i < 40; i++) work(l, 0);
    for (let t = 200; t <= 20_000; t += 200) {
      const done = work(l, t);
      l.settle(done, t, true);
      expect(l.tick(t + 100)).toBe('none');
    }
    expect(l.down).toBe(false);
  });

  it('probes a long statement that runs alone, and stays up while the probe answers', () => {
    const l = new DatabaseLiveness(options, 0);
    const long = work(l, 0);
    expect(l.tick(100)).toBe('none');
    expect(l.tick(300)).toBe('probe');
    l.probeStarted(300);
    expect(l.tick(400)).toBe('none'); // one probe at a time
    l.probeAnswered(310);
    // The next probe no sooner than suspectAfterMs after the last one.
    expect(l.tick(500)).toBe('none');
    expect(l.tick(600)).toBe('probe');
    l.probeStarted(600);
    l.probeAnswered(605);
    expect(l.down).toBe(false);
    expect(long.failed).toBe(0);
  });

  it('finds the database not answering once a probe stays unanswered, and fails every waiting piece of work at once', () => {
    const l = new DatabaseLiveness(options, 0);
    // A request's first statement, another request's wait for a connection, a third's transaction.
    const items = [work(l, 0), work(l, 50), work(l, 120)];
    expect(l.tick(300)).toBe('probe');
    l.probeStarted(300);
    expect(l.tick(1200)).toBe('none');
    expect(l.down).toBe(false);
    l.tick(1300); // the probe's second ran out, and nothing else answered since t = 0
    expect(l.down).toBe(true);
    expect(items.map((i) => i.failed)).toEqual([1, 1, 1]);
    expect(l.waiting).toBe(0);
  });

  it('bounds a request of many statements by one deadline: work begun while down fails at the next tick, not after a budget of its own', () => {
    const l = new DatabaseLiveness(options, 0);
    work(l, 0);
    l.tick(300);
    l.probeStarted(300);
    l.tick(1300);
    expect(l.down).toBe(true);
    // The same request's next statements (db.ts refuses them unsent while down; any begun meanwhile fail here).
    const second = work(l, 1310);
    const third = work(l, 1320);
    l.tick(1400);
    expect([second.failed, third.failed]).toEqual([1, 1]);
  });

  it('does not go down while other statements answer, even with a slow probe', () => {
    const l = new DatabaseLiveness(options, 0);
    work(l, 0);
    l.tick(300);
    l.probeStarted(300);
    const quick = work(l, 900);
    l.settle(quick, 1000, true); // something answered within the last probe timeout
    expect(l.tick(1400)).toBe('none');
    expect(l.down).toBe(false);
  });

  it('a statement that ended without an answer (timed out, connection lost) is no sign of life', () => {
    const l = new DatabaseLiveness(options, 0);
    const a = work(l, 0);
    work(l, 0);
    l.settle(a, 200, false);
    expect(l.tick(300)).toBe('probe');
  });

  it('goes down at once when the probe cannot connect, and keeps probing (at most every 0.5 s) until an answer brings it back', () => {
    const l = new DatabaseLiveness(options, 0);
    const item = work(l, 0);
    l.tick(300);
    l.probeStarted(300);
    l.probeFailed(320);
    expect(l.tick(400)).toBe('none'); // went down; the last probe was 100 ms ago
    expect(l.down).toBe(true);
    expect(item.failed).toBe(1);
    expect(l.tick(800)).toBe('probe');
    l.probeStarted(800);
    l.probeAnswered(850);
    expect(l.down).toBe(false);
    expect(l.tick(900)).toBe('none');
  });

  it('replaces a probe held unanswered for 15 s (a connection lost without a word)', () => {
    const l = new DatabaseLiveness(options, 0);
    work(l, 0);
    l.tick(300);
    l.probeStarted(300);
    l.tick(1300);
    expect(l.down).toBe(true);
    expect(l.tick(10_000)).toBe('none'); // a frozen server answers the probe it holds when it wakes
    expect(l.tick(15_300)).toBe('reconnect-probe');
  });

  it('an idle pool asks for nothing', () => {
    const l = new DatabaseLiveness(options, 0);
    expect(l.tick(60_000)).toBe('none');
  });

  it('its error is a database-unavailable one (503 with Retry-After)', () => {
    expect(isDatabaseUnavailable(new DatabaseNotAnsweringError())).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: new DatabaseNotAnsweringError() }))).toBe(true);
  });
});
