import { addressOf } from '../../platform/http/client-address.js';
import { AppError } from '../../platform/errors.js';

const WINDOW_MS = 15 * 60_000;
/**
 * Per address and account: one address guessing one password. Per account across addresses: far
 * higher, so that it takes many addresses to lock an owner out, and guessing from many is still
 * bounded (100 guesses per 15 minutes). Per address across accounts: one address spraying.
 */
const LIMITS = { pair: 5, account: 100, address: 20 } as const;

interface Counter {
  failures: number;
  windowStart: number;
}

/**
 * Slows password guessing: after 5 failed logins for one account from one address, 20 from one
 * address, or 100 for one account from anywhere, within 15 minutes, further attempts of that kind
 * get 429 (with Retry-After) until the window passes. Failures from one address do not lock the
 * account's owner out elsewhere: the right password from another address still works. An attempt
 * counts as a failure from the moment it starts (so guesses sent all at once are counted too) and
 * is taken back when it turns out not to be a wrong password. Checked before the password, so a
 * throttled guesser learns nothing. Counted by each process.
 */
export class LoginThrottle {
  private readonly counters = new Map<string, Counter>();

  /** Counts an attempt, or throws 429 when a limit is reached. */
  begin(email: string | null, ip: string, now = Date.now()) {
    const keys = this.keys(email, ip);
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
  release(email: string | null, ip: string, now = Date.now()) {
    for (const [key] of this.keys(email, ip)) {
      const c = this.current(key, now);
      if (c) c.failures = Math.max(0, c.failures - 1);
    }
  }

  /**
   * A successful login also forgives that address's earlier failures for the account. Not the
   * account's count: an owner logging in must not hand a distributed guesser a fresh allowance.
   */
  succeeded(email: string, ip: string, now = Date.now()) {
    this.release(email, ip, now);
    this.counters.delete(this.keys(email, ip)[0]![0]);
  }

  /** `email` null: an attempt that guesses no account's password (a set-up refused), counted on the address only. */
  private keys(email: string | null, ip: string): (readonly [string, number])[] {
    const address = addressOf(ip);
    if (email === null) return [[`a:${address}`, LIMITS.address]];
    const account = email.toLowerCase();
    return [
      [`p:${address}\n${account}`, LIMITS.pair],
      [`e:${account}`, LIMITS.account],
      [`a:${address}`, LIMITS.address],
    ];
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

