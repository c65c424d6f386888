import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../../src/accounts/sessions/login-throttle.js';
import { AppError } from '../../src/platform/errors.js';
import { makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

/** Login and first-run throttling through real HTTP; addresses come from X-Forwarded-For. */
const t = useTestApp({ TRUST_PROXY: 'true' });

const address = () => `198.51.${randomBytes(2).join('.')}`;
const send = (url: string, from: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: { 'x-forwarded-for': from }, payload });
const login = (from: string, email: string, password: string) => send('/auth/login', from, { email, password });

describe('POST /auth/setup once the site has users', () => {
  it('refuses without hashing the password, and is throttled per address like a login', async () => {
    await makeUser(t.db);
    const burst = (from: string) =>
      Promise.all(Array.from({ length: 40 }, (_, i) => send('/auth/setup', from, { email: `setup-${i}@example.com`, password: 'correct horse battery' })));
    // Warm-up from addresses of their own: the first rounds load and compile code (up to ~0.4 s of CPU each).
    await burst(address());
    await burst(address());

    const seconds: number[] = [];
    for (let round = 0; round < 2; round++) {
      const before = process.cpuUsage();
      const answers = await burst(address());
      const { user, system } = process.cpuUsage(before);
      seconds.push((user + system) / 1e6);
      const statuses = answers.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([...Array(20).fill(409), ...Array(20).fill(429)]);
      expect(answers.find((r) => r.statusCode === 429)!.headers['retry-after']).toMatch(/^\d+$/);
    }
    // A password hash costs ~0.2 s of CPU (argon2id, 64 MiB, t=3): hashing before refusing made
    // each round cost 7.7 s. Now ~0.1 s; the better round, so that a compilation or collection
    // landing in one does not fail the test.
    expect(Math.min(...seconds)).toBeLessThan(0.5);
    expect(await t.db.prisma.user.count()).toBe(1);
  });
});

describe('failed logins', () => {
  it('lock out the address that made them, not the account: the right password from elsewhere still works', async () => {
    const admin = await makeUser(t.db, { siteAdmin: true });
    const attacker = address();
    for (let i = 0; i < 5; i++) expect((await login(attacker, admin.email, `guess-${i}`)).statusCode).toBe(401);
    const locked = await login(attacker, admin.email, admin.password);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // The e-mail's case does not make a new pair.
    expect((await login(attacker, admin.email.toUpperCase(), admin.password)).statusCode).toBe(429);

    expect((await login(address(), admin.email, admin.password)).statusCode).toBe(200);
    // The attacker's address may still log in to other accounts until it reaches its own limit.
    const other = await makeUser(t.db);
    expect((await login(attacker, other.email, other.password)).statusCode).toBe(200);
  });

  it('counts guesses sent all at once against the limit', async () => {
    const user = await makeUser(t.db);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: `guess-${i}` } }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(7);
  });
});

/** The limits themselves, on the class: a wrong password costs ~0.2 s of CPU to find out through HTTP. */
describe('LoginThrottle', () => {
  const refused = (throttle: LoginThrottle, email: string, ip: string, now: number) => {
    try {
      throttle.begin(email, ip, now);
      return false;
    } catch (error) {
      return error instanceof AppError && error.status === 429;
    }
  };

  it('still bounds guessing one account from many addresses: 100 failures in 15 minutes lock it for everyone', () => {
    const throttle = new LoginThrottle();
    const now = Date.now();
    for (let a = 0; a < 20; a++) {
      for (let i = 0; i < 5; i++) expect(refused(throttle, 'owner@example.com', `10.0.0.${a}`, now)).toBe(false);
      expect(refused(throttle, 'owner@example.com', `10.0.0.${a}`, now)).toBe(true);
    }
    expect(refused(throttle, 'owner@example.com', '10.0.1.1', now)).toBe(true);
    expect(refused(throttle, 'someone-else@example.com', '10.0.1.1', now)).toBe(false);
    expect(refused(throttle, 'owner@example.com', '10.0.1.1', now + 15 * 60_000)).toBe(false);
  });

  it('limits one address to 20 failures across accounts; a success forgives its failures for that account only', () => {
    const throttle = new LoginThrottle();
    const now = Date.now();
    for (let i = 0; i < 4; i++) throttle.begin('me@example.com', '10.0.0.1', now);
    throttle.begin('me@example.com', '10.0.0.1', now);
    throttle.succeeded('me@example.com', '10.0.0.1', now);
    for (let i = 0; i < 5; i++) expect(refused(throttle, 'me@example.com', '10.0.0.1', now)).toBe(false);
    for (let i = 0; i < 11; i++) expect(refused(throttle, `n${i}@example.com`, '10.0.0.1', now)).toBe(false);
    expect(refused(throttle, 'fresh@example.com', '10.0.0.1', now)).toBe(true);
    expect(refused(throttle, 'fresh@example.com', '10.0.0.2', now)).toBe(false);
  });
});

describe('what a failure counts against', () => {
  it('counts refused set-ups on the address only: 100 of them from many addresses do not lock the admin out', async () => {
    const admin = await makeUser(t.db);
    for (let i = 0; i < 25; i++) {
      const from = address();
      for (let j = 0; j < 4; j++) expect((await send('/auth/setup', from, { email: admin.email, password: 'correct horse battery' })).statusCode).toBe(409);
    }
    expect((await login(address(), admin.email, admin.password)).statusCode).toBe(200);
  });

  it('takes an IPv6 client as its /64: new addresses in the same /64 get no fresh allowance', async () => {
    const user = await makeUser(t.db);
    const prefix = `2001:db8:${randomBytes(2).toString('hex')}:1`;
    for (let i = 1; i <= 5; i++) expect((await login(`${prefix}::${i}`, user.email, 'wrong password')).statusCode).toBe(401);
    expect((await login(`${prefix}::99`, user.email, user.password)).statusCode).toBe(429);
    expect((await login(`2001:db8:ffff:2::1`, user.email, user.password)).statusCode).toBe(200);
  });

  it('counts a wrong current password on the account page with the logins, and forgives nothing it did not check', async () => {
    const user = await makeUser(t.db);
    const from = address();
    const cookie = String((await login(from, user.email, user.password)).headers['set-cookie']).split(';')[0]!;
    const account = (method: 'PATCH' | 'PUT', url: string, payload: object) =>
      t.app.inject({ method, url, headers: { 'x-forwarded-for': from, cookie, origin: 'http://localhost:80' }, payload });
    for (let i = 0; i < 4; i++) expect((await account('PUT', '/account/password', { currentPassword: 'wrong', newPassword: 'another long password' })).statusCode).toBe(400);
    // A name change sends a password it never checks: it must not reset the counters.
    expect((await account('PATCH', '/account', { name: 'Renamed', currentPassword: 'anything' })).statusCode).toBe(200);
    expect((await login(from, user.email, 'wrong again')).statusCode).toBe(401);
    expect((await login(from, user.email, user.password)).statusCode).toBe(429);
  });
});
