import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  method: string;
  path: string;
}

/** What the receiver answers: a status, headers, body; or 'hang' to never answer. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/**
 * A customer's webhook endpoint on loopback: records every request, answers what the test says
 * (200 by default), and verifies signatures with the standardwebhooks package — a library we did
 * not write — so the tests check the format against the specification's own implementation.
 */
export async function startReceiver(answer: (req: Received, index: number) => Answer = () => ({ status: 200 })) {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), method: req.method ?? '', path: req.url ?? '' };
      received.push(r);
      for (const w of waiters.splice(0)) w();
      const a = answer(r, received.length - 1);
      if (a === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(a.status, a.headers ?? {});
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Resolves once `n` requests have arrived (rejects after `timeoutMs`). */
    async waitFor(n: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`receiver: ${received.length} of ${n} requests after ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      return received;
    },
    /** The parsed payload, after verifying the request's signature with this secret (throws if not). */
    verify(r: Received, secret: string) {
      return new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { type: string; timestamp: string; data: Record<string, unknown> };
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
