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

const caches = new WeakMap<object, Map<string, Entry>>();

function cacheOf(db: object): Map<string, Entry> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

export function cachedCredential<T>(db: object, key: string, now = Date.now()): T | undefined {
  const cache = cacheOf(db);
  const entry = cache.get(key);
  if (!entry) return undefined;
  if (now - entry.at > CREDENTIAL_TTL_MS) {
    cache.delete(key);
    return undefined;
  }
  return entry.value as T;
}

export function cacheCredential(db: object, key: string, value: unknown, now = Date.now()) {
  const cache = cacheOf(db);
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(key, { value, at: now });
}

/** After any change that may stop a credential: revoke, block, delete, logout. */
export function forgetCredentials(db: object) {
  caches.get(db)?.clear();
}
