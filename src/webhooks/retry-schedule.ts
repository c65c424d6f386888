import { withJitter } from '../platform/jitter.js';

export { RETRY_JITTER } from '../platform/jitter.js';

export interface RetryDelayOptions {
  /** WEBHOOK_RETRY_SCHEDULE: the delays between consecutive attempts, one retry per entry. */
  schedule: readonly number[];
  /** The attempt that just failed: 1 for the first. */
  round: number;
  /** Its HTTP status, null when no answer came (timeout, connection error). */
  statusCode: number | null;
  /** Its Retry-After, when it sent one. */
  retryAfterMs: number | null;
  /** A number in [0, 1); tests pass a fixed one. */
  random?: () => number;
}

/**
 * How long to wait before the next attempt of a delivery whose attempt `round` failed, or null
 * when there is none (the schedule is spent, or the receiver answered 410 Gone). A 429 or 503
 * with Retry-After waits at least that long.
 */
export function retryDelay({ schedule, round, statusCode, retryAfterMs, random = Math.random }: RetryDelayOptions): number | null {
  if (statusCode === 410 || round > schedule.length) return null;
  const honoured = statusCode === 429 || statusCode === 503 ? (retryAfterMs ?? 0) : 0;
  const delay = Math.max(schedule[round - 1]!, honoured);
  return withJitter(delay, random);
}
