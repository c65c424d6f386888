/**
 * The share of a retry's delay added at random (0 to 10 %): deliveries that failed together — one
 * receiver down behind many endpoints, an SMTP server restarting — must not all come back in the
 * same instant. Only ever later, never earlier: the schedule stays the least a receiver waits.
 */
export const RETRY_JITTER = 0.1;

/** `delay` plus up to RETRY_JITTER of it at random; `random` in [0, 1) (tests pass a fixed one). */
export function withJitter(delay: number, random: () => number = Math.random): number {
  return delay + Math.floor(delay * RETRY_JITTER * random());
}
