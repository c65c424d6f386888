import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../net.js';
import { buildApp } from '../../src/app.js';
import { configFrom } from '../../src/config.js';
import { openPostgres } from '../../src/platform/db.js';

/** A server that accepts connections and never answers: the worst kind of unreachable. */
let silent: net.Server;
let silentPort: number;
const sockets = new Set<net.Socket>();
beforeAll(async () => {
  silent = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  silentPort = (silent.address() as net.AddressInfo).port;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent.close(r));
});

async function appOn(url: string): Promise<FastifyInstance> {
  const config = configFrom({ DATABASE_URL: url, MIGRATE_ON_START: 'false', LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, db: openPostgres({ url, connectTimeoutMs: 1000 }) });
  app.get('/api/_probe/query', async () => app.db.prisma.user.count());
  return app;
}

describe.each([
  ['a closed port', async () => `postgresql://postgres@127.0.0.1:${await freePort()}/x`],
  ['a server that never answers', async () => `postgresql://postgres@127.0.0.1:${silentPort}/x`],
])('with the database on %s', (_name, url) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appOn(await url());
  });
  afterAll(() => app.close());

  it('answers /readyz with 503 and Retry-After within two seconds', async () => {
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(performance.now() - t0).toBeLessThan(2500);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('answers a request that needs the database with 503 {error} and Retry-After, not a hang or a 500', async () => {
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url: '/api/_probe/query' });
    expect(performance.now() - t0).toBeLessThan(2500);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.json()).toEqual({ error: expect.stringContaining('database unavailable') });
  });

  it('still answers /healthz (the process is up)', async () => {
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
  });
});
