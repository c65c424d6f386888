import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../net.js';

/**
 * The real entry points as operators run them (`npm start`'s `node --import tsx src/server.ts`, the admin CLI),
 * as child processes on the embedded database in a temporary DATA_DIR.
 */
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'tb-server-'));
const env = { ...process.env, DATABASE_URL: '', TEST_DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'info', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' }; // a starved CI process would shed otherwise
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/**
 * The status of a GET, with the body read: an unread body keeps the client's connection busy,
 * and a server shutting down waits for busy connections.
 */
async function status(url: string): Promise<number> {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res.status;
}

interface Running {
  child: ChildProcess;
  base: string;
  output: () => string;
  stop(): Promise<number | null>;
}

async function start(): Promise<Running> {
  const port = await freePort();
  // The server itself, not a tsx wrapper: a wrapper killed with SIGKILL leaves its child holding the data directory.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: root, env: { ...env, PORT: String(port) } });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  // A bound, not a measurement: a start took over 60 s beside a loaded CI run.
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    const ok = await status(`${base}/healthz`).then((code) => code === 200, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      // Never leave it holding the data directory for the next test.
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      throw new Error(`server did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    base,
    output: () => output,
    stop: () => {
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      return exited;
    },
  };
}

function admin(...args: string[]) {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: root, env, encoding: 'utf8' });
  return { code: res.status, json: JSON.parse(res.stdout.trim().split('\n').at(-1) ?? 'null') as Record<string, unknown>, stdout: res.stdout };
}

describe('the server process on the embedded database', () => {
  it('serves health, readiness and the docs; answers the admin CLI while it holds the database; stops cleanly on SIGTERM', async () => {
    const server = await start();
    try {
      // A new data directory: created from the baseline npm ci wrote (prisma/baseline), else created and migrated.
      expect(server.output()).toMatch(/creating the embedded database from its baseline|applied migrations/);
      expect(await status(`${server.base}/readyz`)).toBe(200);
      expect(await status(`${server.base}/api/docs/openapi.json`)).toBe(200);
      expect(await status(`${server.base}/api/docs/`)).toBe(200);

      // The CLI cannot open the data directory the server holds; it goes through the server.
      const migrated = admin('db', 'migrate');
      expect(migrated).toMatchObject({ code: 0, json: { applied: [] } });
      const bad = admin('no', 'such');
      expect(bad.code).toBe(1);
      expect(bad.json).toEqual({ error: expect.stringContaining('unknown command') });
    } finally {
      const code = await server.stop();
      expect(code, server.output()).toBe(0);
    }
    expect(server.output()).toMatch(/shutting down/);
    expect(existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
  }, 400_000);

  it('migrates a fresh data directory once: a restart applies nothing and starts on the same data', async () => {
    // The first test started on the fresh directory and applied the migrations.
    const server = await start();
    try {
      expect(await status(`${server.base}/readyz`)).toBe(200);
      expect(server.output()).not.toMatch(/applied migrations/);
    } finally {
      await server.stop();
    }
    // With the server stopped, the CLI opens DATA_DIR itself.
    expect(admin('db', 'migrate')).toMatchObject({ code: 0, json: { applied: [], alreadyApplied: expect.any(Number) } });
  }, 400_000);

  it('refuses a bad setting with one line naming the variable, and exit code 1', () => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: root, env: { ...env, PORT: 'eighty' }, encoding: 'utf8' });
    expect(res.status).toBe(1);
    expect(res.stderr.trim()).toBe('error: invalid setting PORT: must be a whole number (got "eighty")');
  });
});
