const MINUTE = 60_000;

/**
 * lastUsedAt to the minute without a write per request: at most one write per credential per
 * minute (per process), off the request's path. `write` gets the minute to store and should only
 * move the column forward (its WHERE keeps concurrent processes from repeating it).
 */
export function touchLastUsed(entry: { lastUsedAt: number | null }, now: number, write: (at: Date) => Promise<unknown>) {
  if (entry.lastUsedAt !== null && now - entry.lastUsedAt < MINUTE) return;
  entry.lastUsedAt = now;
  write(new Date(Math.floor(now / MINUTE) * MINUTE)).catch(() => {
    // Losing one lastUsedAt update is harmless; the next minute writes it again.
  });
}
