import { describe, expect, it } from 'vitest';
import { CREDENTIAL_REFRESH_AFTER_MS, CREDENTIAL_TTL_MS, forgetCredentials, lookupCredential } from '../../src/accounts/credentials/credential-cache.js';

/** A lookup the test answers by hand, counting how often the cache asked. */
function lookups<T>() {
  const pending: ((value: T) => void)[] = [];
  return {
    load: () => new Promise<T>((resolve) => pending.push(resolve)),
    get count() {
      return pending.length;
    },
    answer: (i: number, value: T) => pending[i]!(value),
  };
}

describe('the credential cache', () => {
  it('does not store an answer read before a forget (a revoke racing a lookup), nor hand that lookup to later requests', async () => {
    const db = {};
    const source = lookups<{ live: boolean }>();
    const racing = lookupCredential(db, 'key:x', source.load, 0);
    forgetCredentials(db); // a revoke lands while the lookup is in the database
    const after = lookupCredential(db, 'key:x', source.load, 1);
    expect(source.count).toBe(2); // the request after the revoke reads again
    // The read after the revoke answers first; the one from before it last, and must not replace it.
    source.answer(1, { live: false });
    expect(await after).toEqual({ live: false });
    source.answer(0, { live: true });
    expect(await racing).toEqual({ live: true });
    expect(await lookupCredential(db, 'key:x', source.load, 2)).toEqual({ live: false });
    expect(source.count).toBe(2);
  });

  it('a lookup under way when a forget lands answers its own request but is not kept for the next', async () => {
    const db = {};
    const source = lookups<string>();
    const racing = lookupCredential(db, 'key:v', source.load, 0);
    forgetCredentials(db);
    source.answer(0, 'live'); // read before the revoke committed
    expect(await racing).toBe('live');
    const next = lookupCredential(db, 'key:v', source.load, 1);
    expect(source.count).toBe(2);
    source.answer(1, 'revoked');
    expect(await next).toBe('revoked');
  });

  it('does not hand a lookup begun longer ago than the TTL to a new request (its answer may predate a revoke elsewhere)', async () => {
    const db = {};
    const source = lookups<string>();
    const slow = lookupCredential(db, 'key:old', source.load, 0);
    // Still under way a TTL later (its statements waited behind busy connections): a new lookup.
    const late = lookupCredential(db, 'key:old', source.load, CREDENTIAL_TTL_MS + 1);
    expect(source.count).toBe(2);
    source.answer(1, 'revoked');
    expect(await late).toBe('revoked');
    source.answer(0, 'live');
    expect(await slow).toBe('live');
    // The older answer, arriving last, does not replace the newer one.
    expect(await lookupCredential(db, 'key:old', source.load, CREDENTIAL_TTL_MS + 2)).toBe('revoked');
    expect(source.count).toBe(2);
  });

  it('shares one lookup between the requests that miss while it runs', async () => {
    const db = {};
    const source = lookups<string>();
    const all = Promise.all([0, 1, 2, 3].map((i) => lookupCredential(db, 'key:y', source.load, i)));
    expect(source.count).toBe(1);
    source.answer(0, 'alice');
    expect(await all).toEqual(['alice', 'alice', 'alice', 'alice']);
  });

  it('reads a credential in steady use again in the background, so no request waits for it, and never serves an answer past its TTL', async () => {
    const db = {};
    const source = lookups<string>();
    const first = lookupCredential(db, 'key:z', source.load, 0);
    source.answer(0, 'v1');
    expect(await first).toBe('v1');
    // Young: from memory, no lookup.
    expect(await lookupCredential(db, 'key:z', source.load, CREDENTIAL_REFRESH_AFTER_MS - 1)).toBe('v1');
    expect(source.count).toBe(1);
    // Past the refresh age: still answered at once from memory, and read again meanwhile (once).
    expect(await lookupCredential(db, 'key:z', source.load, CREDENTIAL_REFRESH_AFTER_MS)).toBe('v1');
    expect(await lookupCredential(db, 'key:z', source.load, CREDENTIAL_REFRESH_AFTER_MS + 1)).toBe('v1');
    expect(source.count).toBe(2);
    // Past the TTL with that read still under way: the request waits for it rather than take the old answer.
    let late: string | undefined;
    const waiting = lookupCredential(db, 'key:z', source.load, CREDENTIAL_TTL_MS + 1).then((v) => (late = v));
    await Promise.resolve();
    expect(late).toBeUndefined();
    expect(source.count).toBe(2);
    source.answer(1, 'v2');
    await waiting;
    expect(late).toBe('v2');
    // The new answer counts from when its lookup began.
    expect(await lookupCredential(db, 'key:z', source.load, CREDENTIAL_REFRESH_AFTER_MS + CREDENTIAL_REFRESH_AFTER_MS - 1)).toBe('v2');
    expect(source.count).toBe(2);
  });

  it('a failed background read leaves the answer until its TTL, then the request itself reads (and sees the failure)', async () => {
    const db = {};
    let calls = 0;
    const load = async () => {
      calls++;
      if (calls > 1) throw new Error('database down');
      return 'v1';
    };
    expect(await lookupCredential(db, 'key:w', load, 0)).toBe('v1');
    expect(await lookupCredential(db, 'key:w', load, CREDENTIAL_REFRESH_AFTER_MS)).toBe('v1');
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toBe(2);
    await expect(lookupCredential(db, 'key:w', load, CREDENTIAL_TTL_MS + 1)).rejects.toThrow('database down');
  });

  it('a refreshed answer keeps the last use noted on the one it replaces (its write may still be on its way)', async () => {
    const db = {};
    const source = lookups<{ lastUsedAt: number | null }>();
    const first = lookupCredential(db, 'key:u', source.load, 0);
    source.answer(0, { lastUsedAt: null });
    (await first).lastUsedAt = 120_000; // touchLastUsed noted a use and sent its write
    expect((await lookupCredential(db, 'key:u', source.load, CREDENTIAL_REFRESH_AFTER_MS)).lastUsedAt).toBe(120_000);
    source.answer(1, { lastUsedAt: 60_000 }); // the database, before that write landed
    await new Promise((r) => setTimeout(r, 0));
    expect((await lookupCredential(db, 'key:u', source.load, CREDENTIAL_REFRESH_AFTER_MS + 1)).lastUsedAt).toBe(120_000);
  });
});
