import { aheadOfQueue } from '../../platform/db.js';

/**
 * Resolved credentials, kept for at most CREDENTIAL_TTL_MS so authentication costs a hash and a
 * map lookup instead of a query per request. One cache per database client, so apps on different
 * databases (tests) never share entries. Revocation, blocking and deletion made through the same
 * client (this server, or the admin CLI talking to it) clear it at once; made by another process
 * they take effect within CREDENTIAL_TTL_MS.
 */
export const CREDENTIAL_TTL_MS = 1000;
const MAX_ENTRIES = 10_000;

/**
 * A cached answer older than this is still served but read again in the background, so that a
 * credential in steady use does not wait for its lookup (the lookup also goes ahead of the
 * requests waiting for a database connection: aheadOfQueue).
 */
export const CREDENTIAL_REFRESH_AFTER_MS = CREDENTIAL_TTL_MS / 2;

interface Entry {
  value: unknown;
  /** When the lookup that read it began: the answer is no older than that. */
  at: number;
}

/** A lookup under way, which requests that miss meanwhile share (unless a forget came between, or it began too long ago). */
interface Flight {
  generation: number;
  /** When it began: its answer may be as old as that. */
  at: number;
  promise: Promise<unknown>;
}

interface Cache {
  entries: Map<string, Entry>;
  inflight: Map<string, Flight>;
  /** Bumped by every forget, so a lookup that started before it does not store a stale answer. */
  generation: number;
}

const caches = new WeakMap<object, Cache>();

function cacheOf(db: object): Cache {
  let cache = caches.get(db);
  if (!cache) {
    cache = { entries: new Map(), inflight: new Map(), generation: 0 };
    caches.set(db, cache);
  }
  return cache;
}

/**
 * The credential under `key`: from memory when read less than CREDENTIAL_TTL_MS ago (read again
 * in the background past CREDENTIAL_REFRESH_AFTER_MS), else through `load`, one lookup per key at
 * a time. `load` answers null for a credential that does not work; that is cached too. Ages are
 * measured on the monotonic clock (`now`: tests pass their own), so a step of the wall clock
 * neither keeps an answer nor drops it.
 */
export function lookupCredential<T>(db: object, key: string, load: () => Promise<T>, now = performance.now()): Promise<T> {
  const cache = cacheOf(db);
  const entry = cache.entries.get(key);
  if (entry && now - entry.at <= CREDENTIAL_TTL_MS) {
    if (now - entry.at >= CREDENTIAL_REFRESH_AFTER_MS) {
      // Failures are the next foreground lookup's to report (a 503), once the entry has expired.
      read(cache, key, load, now).catch(() => {});
    }
    return Promise.resolve(entry.value as T);
  }
  if (entry) cache.entries.delete(key);
  return read(cache, key, load, now);
}

function read<T>(cache: Cache, key: string, load: () => Promise<T>, now: number): Promise<T> {
  const flight = cache.inflight.get(key);
  // A lookup that began longer ago than the TTL may answer from before a revoke the TTL promises
  // to see (its statements can wait behind busy connections): a new one is started instead.
  if (flight && flight.generation === cache.generation && now - flight.at <= CREDENTIAL_TTL_MS) return flight.promise as Promise<T>;
  const generation = cache.generation;
  // Ahead of the requests waiting for a database connection: they wait for this answer.
  const promise: Promise<T> = aheadOfQueue(load).then(
    (value) => {
      if (cache.inflight.get(key)?.promise === promise) cache.inflight.delete(key);
      store(cache, key, value, generation, now);
      return value;
    },
    (error: unknown) => {
      if (cache.inflight.get(key)?.promise === promise) cache.inflight.delete(key);
      throw error;
    },
  );
  cache.inflight.set(key, { generation, at: now, promise });
  return promise;
}

function store(cache: Cache, key: string, value: unknown, generation: number, at: number) {
  if (cache.generation !== generation) return;
  // A lookup that began later may have answered first: the newer answer stays.
  const current = cache.entries.get(key);
  if (current && current.at > at) return;
  keepLastUse(current?.value, value);
  if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
  cache.entries.set(key, { value, at });
}

/**
 * The last use touchLastUsed noted on the answer being replaced outlives it: the database may not
 * have it yet (its write waits in the pool's queue), and a refreshed answer that forgot it would
 * write it again at once.
 */
function keepLastUse(previous: unknown, next: unknown) {
  const used = (value: unknown) => (value && typeof value === 'object' && 'lastUsedAt' in value ? (value as { lastUsedAt: number | null }) : null);
  const before = used(previous);
  const after = used(next);
  if (before?.lastUsedAt != null && after && (after.lastUsedAt === null || after.lastUsedAt < before.lastUsedAt)) after.lastUsedAt = before.lastUsedAt;
}

/** After any change that may stop a credential: revoke, block, delete, logout. */
export function forgetCredentials(db: object) {
  const cache = cacheOf(db);
  cache.generation++;
  cache.entries.clear();
  cache.inflight.clear();
}
