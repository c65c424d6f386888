import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { resetsIdle } from '../../src/accounts/join/reset-queue.js';
import { makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { useLoopbackSmtp } from '../smtp-server.js';

/**
 * #44 item 4: "Forgot password" must not tell, by the time it takes, whether an address has an
 * account. Before the fix the route awaited the lookup, the link and the mail: an existing address
 * answered in ~100 ms, an unknown one in ~20 ms. Now it answers first and does the work after.
 */
const ROUNDS = 50;
const WARM_UP = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const waitUntil = async (check: () => Promise<boolean>) => {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the mail was not marked sent within 60 s');
    await sleep(20);
  }
};
const tag = () => Math.random().toString(36).slice(2, 10);
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

describe('forgot password takes the same time for every address', { timeout: 300_000 }, () => {
  const smtp = useLoopbackSmtp();
  const t = useTestApp(() => smtp.env({ PUBLIC_BASE_URL: 'https://tb.example.test' }));
  const ask = (email: string) => t.app.inject({ method: 'POST', url: '/auth/password-reset', payload: { email } });

  it('an existing address, an unknown one and one at its reset limit: medians within 20 % (or 5 ms), and the existing ones got their mail', async () => {
    // One address at its limit: 3 resets this hour, each done before going on.
    const limited = await makeUser(t.db);
    for (let i = 0; i < 3; i++) {
      expect((await ask(limited.email)).statusCode).toBe(202);
      await resetsIdle(t.app);
    }
    await smtp.waitFor(limited.email);
    const resetsTo = (recipient: string) => t.db.prisma.mailMessage.count({ where: { kind: 'password-reset', recipient } });
    expect(await resetsTo(limited.email)).toBe(3);

    // A fresh account per round: an address asked for once is below its limit, so the server
    // really does the whole work (lookup, link, mail) for it each time.
    const existing = await Promise.all(Array.from({ length: ROUNDS + WARM_UP }, () => makeUser(t.db)));
    const times = { existing: [] as number[], unknown: [] as number[], limited: [] as number[] };
    const answers = new Set<string>();
    const sample = async (kind: keyof typeof times, email: string, round: number) => {
      const started = performance.now();
      const res = await ask(email);
      const took = performance.now() - started;
      expect(res.statusCode, res.body).toBe(202);
      answers.add(res.body);
      // Let this request's background work (and the mail it woke) settle before the next sample
      // is timed, so one sample's work does not land in another's time.
      await resetsIdle(t.app);
      if (kind === 'existing') {
        await smtp.waitFor(email);
        // The worker marks the mail sent after the SMTP server has it: that too before going on.
        await waitUntil(async () => (await t.db.prisma.mailMessage.count({ where: { recipient: email, status: 'sent' } })) === 1);
      }
      // A short pause after every sample alike, for whatever else the work set going (pool, log, GC).
      await sleep(30);
      if (round >= WARM_UP) times[kind].push(took);
    };

    for (let round = 0; round < ROUNDS + WARM_UP; round++) {
      // Interleaved, and the order turns each round, so slow spells of a loaded machine fall on all three alike.
      const order: [keyof typeof times, string][] = [
        ['existing', existing[round]!.email],
        ['unknown', `nobody-${tag()}@example.test`],
        ['limited', limited.email],
      ];
      for (let i = 0; i < order.length; i++) {
        const [kind, email] = order[(round + i) % order.length]!;
        await sample(kind, email, round);
      }
    }

    // The same answer for all.
    expect(answers.size).toBe(1);
    // Not a pass by doing nothing: every existing address got its mail, the limited one no more.
    const mailed = await t.db.prisma.mailMessage.count({ where: { kind: 'password-reset', recipient: { in: existing.map((u) => u.email) } } });
    expect(mailed).toBe(existing.length);
    for (const user of existing) expect(smtp.to(user.email)).toHaveLength(1);
    expect(await resetsTo(limited.email)).toBe(3);

    const medians = { existing: median(times.existing), unknown: median(times.unknown), limited: median(times.limited) };
    const values = Object.values(medians);
    const spread = Math.max(...values) - Math.min(...values);
    // 20 % of the slowest median, or 5 ms, whichever is larger. Answered without the work, every
    // request here takes a millisecond or two; at that size 20 % is a fraction of a millisecond,
    // less than the scheduling noise of a loaded 2-core machine (a timer or GC pause lands on one
    // sample or another), so a floor of 5 ms keeps the test from failing on noise. It still fails
    // on the leak it guards: before the fix the existing address took 40–100 ms more.
    const allowed = Math.max(0.2 * Math.max(...values), 5);
    expect(spread, `medians (ms) ${JSON.stringify(medians)}; allowed spread ${allowed.toFixed(1)} ms`).toBeLessThanOrEqual(allowed);
  });
});
