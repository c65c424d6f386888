import { expect, it } from 'vitest';
import { buildTestApp } from '../helper.js';

it('finishes in-flight requests on close and refuses new connections', async () => {
  const t = await buildTestApp({ LOG_LEVEL: 'silent' });
  let entered!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  t.app.get('/api/_probe/slow', async () => {
    entered();
    await new Promise((r) => setTimeout(r, 300));
    return { done: true };
  });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const inFlight = fetch(`${address}/api/_probe/slow`);
  await inside;
  const closing = t.close();
  const res = await inFlight;
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ done: true });
  await closing;
  await expect(fetch(`${address}/healthz`)).rejects.toThrow();
});
