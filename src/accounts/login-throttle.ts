import { AppError } from '../platform/errors.js';

const WINDOW_MS = 15 * 60_000;
const MAX_FAILURES_PER_EMAIL = 5;
const MAX_FAILURES_PER_ADDRESS = 20;

interface Counter {
  failures: number;
  windowStart: number;
}

/**
 * Slows password guessing: after 5 failed logins for one e-mail, or 20 from one address, within
 * 15 minutes, further attempts get 429 (with Retry-After) until the window passes. An attempt
 * counts as a failure from the moment it starts (so guesses sent all at once are counted too)
 * and is taken back when it turns out not to be a wrong password. Checked before the password,
 * so a throttled guesser learns nothing.
 */
export class LoginThrottle {
  private readonly counters = new Map<string, Counter>();

  /** Counts an attempt, or throws 429 when either limit is reached. */
  begin(email: string, ip: string, now = Date.now()) {
    const keys = [[`e:${email}`, MAX_FAILURES_PER_EMAIL], [`a:${ip}`, MAX_FAILURES_PER_ADDRESS]] as const;
    for (const [key, max] of keys) {
      const c = this.current(key, now);
      if (c && c.failures >= max) {
        const retry = Math.max(1, Math.ceil((c.windowStart + WINDOW_MS - now) / 1000));
        throw new AppError(429, 'rate_limited', 'too many failed logins; try again later', { 'retry-after': String(retry) });
      }
    }
    for (const [key] of keys) {
      const c = this.current(key, now) ?? { failures: 0, windowStart: now };
      c.failures++;
      this.counters.set(key, c);
    }
    if (this.counters.size > 100_000) this.prune(now);
  }

  /** The attempt was not a wrong password (right password, blocked account, database down). */
  release(email: string, ip: string, now = Date.now()) {
    for (const key of [`e:${email}`, `a:${ip}`]) {
      const c = this.current(key, now);
      if (c) c.failures = Math.max(0, c.failures - 1);
    }
  }

  /** A successful login also forgives that e-mail's earlier failures. */
  succeeded(email: string, ip: string, now = Date.now()) {
    this.release(email, ip, now);
    this.counters.delete(`e:${email}`);
  }

  private current(key: string, now: number): Counter | undefined {
    const c = this.counters.get(key);
    if (c && now - c.windowStart >= WINDOW_MS) {
      this.counters.delete(key);
      return undefined;
    }
    return c;
  }

  private prune(now: number) {
    for (const [key, c] of this.counters) if (now - c.windowStart >= WINDOW_MS) this.counters.delete(key);
  }
}
