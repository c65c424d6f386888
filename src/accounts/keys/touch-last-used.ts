const MINUTE = 60_000;

/**
 * lastUsedAt to the minute without a write per request: at most one write per credential per
 * minute (per process), off the request's path. `write` gets the minute to store and should only
 * move the column forward (its WHERE keeps concurrent processes from repeating it). The minute is
 * never earlier than `notBefore` (the credential's creation): a key created at 12:00:40 and used
 * at once was last used at 12:00:40, not 12:00:00, before it existed.
 */
export function touchLastUsed(entry: { lastUsedAt: number | null; notBefore?: number }, now: number, write: (at: Date) => Promise<unknown>) {
  if (entry.lastUsedAt !== null && now - entry.lastUsedAt < MINUTE) return;
  entry.lastUsedAt = now;
  write(new Date(Math.max(Math.floor(now / MINUTE) * MINUTE, entry.notBefore ?? 0))).catch(() => {
    // Losing one lastUsedAt update is harmless; the next minute writes it again.
  });
}
