import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { onCleanup } from './cleanup.js';

export const root = path.resolve(import.meta.dirname, '../..');

/** One line the server logged at level error or fatal, with when it came. */
export interface ServerErrorLine {
  at: number;
  msg: string;
  err?: string;
  reqId?: string;
  /** The line itself (cut at 4 KB). */
  raw: string;
}

/**
 * The server as `npm start` runs it (`node --import tsx src/server.ts`: the pid is the server's
 * own, so SIGKILL kills the server and not a launcher), restartable on the same port. Its
 * output is kept: the last lines for diagnostics, and every error-level line for the report.
 */
export class ServerProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private tail: string[] = [];
  readonly errors: ServerErrorLine[] = [];
  readonly base: string;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    readonly port: number,
  ) {
    this.base = `http://127.0.0.1:${port}`;
    onCleanup(`server on port ${port}`, () => {
      if (this.child && this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    });
  }

  /** Spawns the server and resolves with the milliseconds until /healthz answered 200. */
  async start(timeoutMs: number): Promise<number> {
    const t0 = performance.now();
    // detached: Ctrl-C in the terminal reaches this script only, which then kills the server itself.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: root,
      env: { ...this.env, PORT: String(this.port) },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    let partial = '';
    const onData = (d: Buffer) => {
      const lines = (partial + d.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) this.onLine(line);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    const deadline = t0 + timeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited during start (${child.exitCode ?? child.signalCode}):\n${this.output()}`);
      if (await this.answers('/healthz')) return performance.now() - t0;
      if (performance.now() > deadline) throw new Error(`server did not answer /healthz within ${timeoutMs} ms:\n${this.output()}`);
      await sleep(25);
    }
  }

  /** kill -9, and wait for the process to be gone. */
  async kill() {
    this.child?.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM (a graceful stop), SIGKILL after 15 s. */
  async stop() {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(timer);
  }

  /** True when GET `route` answers 200 within a second. */
  async answers(route: string): Promise<boolean> {
    try {
      const res = await fetch(this.base + route, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      return res.status === 200;
    } catch {
      return false;
    }
  }

  /** The last lines the server printed. */
  output(): string {
    return this.tail.join('\n');
  }

  private onLine(line: string) {
    if (!line) return;
    this.tail.push(line);
    if (this.tail.length > 60) this.tail.shift();
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; reqId?: unknown; requestId?: unknown; err?: { message?: string; type?: string } };
      if ((entry.level ?? 0) >= 50) {
        const reqId = entry.reqId ?? entry.requestId;
        this.errors.push({
          at: Date.now(),
          msg: entry.msg ?? '',
          err: entry.err?.message ?? entry.err?.type,
          reqId: reqId === undefined ? undefined : String(reqId),
          raw: line.slice(0, 4096),
        });
      }
    } catch {
      // not pino JSON (a start-up error line): kept in the tail only
    }
  }
}

/** A set-up step that takes longer than this has hung: the part is aborted with what it printed. */
export const SETUP_STEP_TIMEOUT_MS = 60_000;

/** The admin CLI (`node --import tsx src/cli/main.ts …`): its JSON answer, or an error with its output. */
export function admin(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const killed = onCleanup(`admin ${args.slice(0, 2).join(' ')}`, () => child.kill('SIGKILL'));
    let stdout = '';
    let stderr = '';
    // A CLI that never exits (a timer or socket left open) would hang the whole run silently.
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, SETUP_STEP_TIMEOUT_MS);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      killed();
      if (hung) return reject(new Error(`admin ${args.join(' ')}: no exit after ${SETUP_STEP_TIMEOUT_MS / 1000} s\n${stdout}${stderr}`));
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0) {
        try {
          return resolve(JSON.parse(last) as Record<string, unknown>);
        } catch {
          // falls through to the error below
        }
      }
      reject(new Error(`admin ${args.join(' ')}: exit ${code}\n${stdout}${stderr}`));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
