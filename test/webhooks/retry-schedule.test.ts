import { describe, expect, it } from 'vitest';
import { RETRY_JITTER, retryDelay } from '../../src/webhooks/retry-schedule.js';

const schedule = [5_000, 300_000, 1_800_000];
const at = (r: number) => () => r;

describe('retryDelay', () => {
  it('follows the schedule, one retry per entry, then there is none', () => {
    const delays = [1, 2, 3, 4].map((round) => retryDelay({ schedule, round, statusCode: 500, retryAfterMs: null, random: at(0) }));
    expect(delays).toEqual([5_000, 300_000, 1_800_000, null]);
  });

  it('adds at most RETRY_JITTER of the delay, and never retries sooner than the schedule', () => {
    for (const r of [0, 0.25, 0.5, 0.999999]) {
      const delay = retryDelay({ schedule, round: 2, statusCode: null, retryAfterMs: null, random: at(r) })!;
      expect(delay).toBeGreaterThanOrEqual(300_000);
      expect(delay).toBeLessThanOrEqual(300_000 * (1 + RETRY_JITTER));
    }
  });

  it('spreads endpoints that failed together over the jitter window', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const delays = new Set(Array.from({ length: 100 }, () => retryDelay({ schedule, round: 3, statusCode: 503, retryAfterMs: null, random })));
    expect(delays.size).toBeGreaterThan(90);
  });

  it('stops at once on 410 Gone, whatever is left of the schedule', () => {
    expect(retryDelay({ schedule, round: 1, statusCode: 410, retryAfterMs: 60_000, random: at(0) })).toBeNull();
  });

  it('waits at least Retry-After on 429 and 503, and only there', () => {
    expect(retryDelay({ schedule, round: 1, statusCode: 429, retryAfterMs: 60_000, random: at(0) })).toBe(60_000);
    expect(retryDelay({ schedule, round: 1, statusCode: 503, retryAfterMs: 60_000, random: at(0) })).toBe(60_000);
    expect(retryDelay({ schedule, round: 1, statusCode: 500, retryAfterMs: 60_000, random: at(0) })).toBe(5_000);
    // A Retry-After shorter than the schedule does not hurry the retry.
    expect(retryDelay({ schedule, round: 2, statusCode: 429, retryAfterMs: 1_000, random: at(0) })).toBe(300_000);
    expect(retryDelay({ schedule, round: 1, statusCode: 429, retryAfterMs: 60_000, random: at(0.5) })).toBe(60_000 + 60_000 * RETRY_JITTER * 0.5);
  });
});
