import { describe, expect, it } from 'vitest';
import { cacheCredential, cachedCredential, credentialGeneration, forgetCredentials } from '../../src/accounts/credentials/credential-cache.js';

describe('the credential cache', () => {
  it('does not store an answer read before a forget (a revoke racing a lookup)', () => {
    const db = {};
    const before = credentialGeneration(db);
    forgetCredentials(db); // a revoke lands while the lookup is in the database
    cacheCredential(db, 'key:x', { live: true }, before);
    expect(cachedCredential(db, 'key:x')).toBeUndefined();
    cacheCredential(db, 'key:x', { live: false }, credentialGeneration(db));
    expect(cachedCredential(db, 'key:x')).toEqual({ live: false });
  });
});
