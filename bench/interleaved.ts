import type { FastifyInstance } from 'fastify';

/**
 * Latencies (ms, sorted) of two GET routes through `app.inject`, asked in turn `iterations` times after `warmup`
 * rounds of each: interleaved, so that whatever else the machine does weighs on both alike. The second route must
 * answer 200 (it is the one whose cost is measured; a refusal would time something else).
 */
export async function interleaved(app: FastifyInstance, [plain, measured]: [string, string], headers: Record<string, string>, iterations: number, warmup = 0): Promise<[number[], number[]]> {
  for (let i = 0; i < warmup; i++) {
    await app.inject({ method: 'GET', url: plain, headers });
    await app.inject({ method: 'GET', url: measured, headers });
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < iterations; i++) {
    let t0 = performance.now();
    await app.inject({ method: 'GET', url: plain, headers });
    a.push(performance.now() - t0);
    t0 = performance.now();
    const res = await app.inject({ method: 'GET', url: measured, headers });
    b.push(performance.now() - t0);
    if (res.statusCode !== 200) throw new Error(`${measured} answered ${res.statusCode}`);
  }
  return [a.sort((x, y) => x - y), b.sort((x, y) => x - y)];
}

/** The p-quantile (0-1) of sorted values. */
export const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Milliseconds as microseconds, for printing. */
export const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
