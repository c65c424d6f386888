import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serverBundleIsCurrent } from '../../scripts/server-bundle.mjs';
import { freePort } from '../net.js';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'tb-npm-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const up = (url: string) =>
  fetch(url).then(
    async (res) => {
      await res.arrayBuffer();
      return res.ok;
    },
    () => false,
  );

// Generous: `npm start` builds the web app first, and CI runs this beside other test files on a busy 2-core box.
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 150_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('npm start', () => {
  it('builds the web app, serves it, and stops with the npm process it was started by (nothing left holding the database)', async () => {
    const port = await freePort();
    const env = { ...process.env, DATABASE_URL: '', TEST_DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' };
    // Its own process group, as a terminal or a supervisor would start it; the signal goes to npm only.
    const npm = spawn('npm', ['start'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    npm.stdout!.on('data', (d) => (output += d));
    npm.stderr!.on('data', (d) => (output += d));
    const base = `http://127.0.0.1:${port}`;
    try {
      await until(() => up(`${base}/healthz`), 'the server answers').catch((err: Error) => {
        throw new Error(`${err.message}; npm start printed:\n${output.slice(-4000)}`);
      });
      const page = await fetch(`${base}/signin`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<script type="module" src="\/assets\/app-[\w-]{12}\.js">/);
      // It ran the server's bundle (dist/server, current with the sources), whose modules still find
      // the files beside their sources: the widget is built from src/web/client on first request.
      expect(serverBundleIsCurrent()).toBe(true);
      const widget = await fetch(`${base}/widget.js`);
      expect(widget.status).toBe(200);
      expect(await widget.text()).toContain('attachShadow');

      const exited = new Promise<number | null>((r) => npm.once('exit', (code) => r(code)));
      npm.kill('SIGTERM');
      await exited;
      // The server was npm's own child: it got the signal and shut down, so the port is free...
      await until(async () => !(await up(`${base}/healthz`)), 'the server stops', 15_000);
      expect(output).toMatch(/shutdown complete/);
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // already gone: what the test wants
      }
    }
    // ...and the embedded database is free: a second server opens the same DATA_DIR.
    const again = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: root, env, stdio: 'ignore' });
    try {
      await until(() => up(`${base}/healthz`), 'a second server opens the same data directory');
    } finally {
      again.kill('SIGTERM');
      await new Promise((r) => again.once('exit', r));
    }
  }, 400_000);
});
