/**
 * Resolved credentials, kept for at most CREDENTIAL_TTL_MS so authentication costs a hash and a
 * map lookup instead of a query per request. One cache per database client, so apps on different
 * databases (tests) never share entries. Revocation, blocking and deletion made through the same
 * client (this server, or the admin CLI talking to it) clear it at once; made by another process
 * they take effect within CREDENTIAL_TTL_MS.
 */
export const CREDENTIAL_TTL_MS = 1000;
const MAX_ENTRIES = 10_000;

interface Entry {
  value: unknown;
  at: number;
}

interface Cache {
  entries: Map<string, Entry>;
  /** Bumped by every forget, so a lookup that started before it does not store a stale answer. */
  generation: number;
}

const caches = new WeakMap<object, Cache>();

function cacheOf(db: object): Cache {
  let cache = caches.get(db);
  if (!cache) {
    cache = { entries: new Map(), generation: 0 };
    caches.set(db, cache);
  }
  return cache;
}

/** Read before querying the database; pass to cacheCredential with the answer. */
export const credentialGeneration = (db: object) => cacheOf(db).generation;

export function cachedCredential<T>(db: object, key: string, now = Date.now()): T | undefined {
  const { entries } = cacheOf(db);
  const entry = entries.get(key);
  if (!entry) return undefined;
  if (now - entry.at > CREDENTIAL_TTL_MS) {
    entries.delete(key);
    return undefined;
  }
  return entry.value as T;
}

/** Stores an answer read from the database, unless a forget happened since `generation`. */
export function cacheCredential(db: object, key: string, value: unknown, generation: number, now = Date.now()) {
  const cache = cacheOf(db);
  if (cache.generation !== generation) return;
  if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
  cache.entries.set(key, { value, at: now });
}

/** After any change that may stop a credential: revoke, block, delete, logout. */
export function forgetCredentials(db: object) {
  const cache = cacheOf(db);
  cache.generation++;
  cache.entries.clear();
}
