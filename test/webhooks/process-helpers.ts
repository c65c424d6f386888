import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Webhook } from 'standardwebhooks';
import { inject } from 'vitest';
import { freePort } from '../net.js';
import type { Received } from '../webhook-receiver.js';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The server as `npm start` runs it, but started as `node --import tsx` rather than through the
 * `tsx` launcher: the launcher runs the server in a child process of its own, so a SIGKILL sent
 * to the launcher would leave the server running. Here the pid is the server's.
 */
export interface ServerProcess {
  child: ChildProcess;
  base: string;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) and when it came. */
  exited: Promise<{ code: number | null; at: number }>;
}

export async function startServer(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const port = await freePort();
  // No load shedding unless the test asks for it, as test/helper.ts's apps: a server starved on a loaded CI box
  // (its first queries compiled while three test files run) answered a test's request 503 "overloaded".
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: root, env: { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', ...env, PORT: String(port) } });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: Date.now() })));
  const base = `http://127.0.0.1:${port}`;
  // A bound, not a measurement: a spawned server compiles with tsx and opens its database, which took over 40 s on a
  // loaded CI box running three test files at once.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited: ${output}`);
    const up = await fetch(`${base}/healthz`).then(async (res) => {
      await res.arrayBuffer();
      return res.status === 200;
    }, () => false);
    if (up) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, base, output: () => output, exited };
}

/**
 * Puts the run's migrated embedded template (see global-setup.ts) in a fresh DATA_DIR, so the
 * first start skips creating the cluster and migrating it (most of a first start's time).
 * Without a template (a run on PostgreSQL) the server migrates the directory itself.
 */
export async function seedDataDir(dataDir: string) {
  const template = inject('pgliteTemplate');
  if (!template) return;
  const pglite = await PGlite.create({ dataDir: path.join(dataDir, 'pgdata'), loadDataDir: new Blob([readFileSync(template)]) });
  await pglite.close();
}

/**
 * The admin CLI as a process (`npm run admin`'s `tsx src/cli/main.ts`), run asynchronously so
 * that a receiver living in the test process keeps answering meanwhile.
 */
export function admin(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number | null; json: Record<string, unknown>; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: root, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => {
      try {
        resolve({ code, json: JSON.parse(stdout.trim().split('\n').at(-1) ?? 'null') as Record<string, unknown>, stdout });
      } catch {
        reject(new Error(`admin ${args.join(' ')}: exit ${code}, stdout ${stdout}, stderr ${stderr}`));
      }
    });
  });
}

/** What the receiver does with a request: answer now, answer later (a promise), or never. */
export type SlowAnswer = { status: number; body?: string } | 'hang';

/**
 * Like test/webhook-receiver.ts, but an answer may take its time: a test can hold an attempt
 * open while it stops or kills the server sending it. Signatures are checked with the
 * standardwebhooks package.
 */
export async function startSlowReceiver(answer: (req: Received, index: number) => SlowAnswer | Promise<SlowAnswer>) {
  const received: Received[] = [];
  /** When each answer was sent (by request index). */
  const answeredAt: number[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), method: req.method ?? '', path: req.url ?? '' };
      const index = received.push(r) - 1;
      open.add(res);
      void Promise.resolve(answer(r, index)).then((a) => {
        if (a === 'hang' || res.destroyed) return;
        open.delete(res);
        answeredAt[index] = Date.now();
        res.writeHead(a.status, { 'content-type': 'text/plain' });
        res.end(a.body ?? '');
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answeredAt,
    /** Resolves once `n` requests have arrived (rejects after `timeoutMs`). */
    async waitFor(n: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`receiver: ${received.length} of ${n} requests after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received;
    },
    /** The parsed payload, after verifying the request's signature with this secret (throws if not). */
    verify(r: Received, secret: string) {
      return new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { type: string; timestamp: string; data: Record<string, unknown> };
    },
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
