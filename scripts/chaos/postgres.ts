import { execFile, execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../test/net.js';
import { onCleanup } from './cleanup.js';

const run = promisify(execFile);
const BIN = process.env.CHAOS_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** A PostgreSQL cluster of our own, in a temporary directory, on a free loopback port. */
export interface PrivateCluster {
  url: string;
  port: number;
  /** `pg_ctl start -w`: resolves once the server accepts connections. */
  start(): Promise<void>;
  /** `pg_ctl stop -m immediate`: every backend dies at once, no checkpoint (crash recovery on the next start). */
  stopImmediate(): Promise<void>;
  /** Stops the cluster and removes its directory. */
  destroy(): void;
}

/**
 * initdb (trust authentication, socket in the temporary directory) and start. PostgreSQL
 * refuses to run as root, so every command runs as the `postgres` OS user through runuser, in a
 * directory that user owns. The machine's own cluster (port 5432) is never touched.
 */
export async function startPrivateCluster(): Promise<PrivateCluster> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tb-chaos-pg-'));
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  chownSync(dir, uid, gid);
  const data = path.join(dir, 'data');
  const asPostgres = async (bin: string, args: string[]) => {
    const pending = run('runuser', ['-u', 'postgres', '--', path.join(BIN, bin), ...args], { cwd: dir, timeout: 90_000 });
    const forget = onCleanup(`${bin} in ${dir}`, () => pending.child.kill('SIGKILL'));
    try {
      await pending;
    } finally {
      forget();
    }
  };
  const asPostgresSync = (bin: string, args: string[]) =>
    execFileSync('runuser', ['-u', 'postgres', '--', path.join(BIN, bin), ...args], { cwd: dir, stdio: 'ignore', timeout: 30_000 });

  // Registered before initdb, so a failure half-way still removes the directory.
  const destroy = onCleanup(`private PostgreSQL in ${dir}`, () => {
    try {
      asPostgresSync('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } catch {
      // not running
    }
    rmSync(dir, { recursive: true, force: true });
  });

  await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`;
  const start = async () => {
    await asPostgres('pg_ctl', ['-D', data, '-l', path.join(dir, 'postgres.log'), '-o', options, '-w', '-t', '60', 'start']);
  };
  await start();
  await asPostgres('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'taskboard']);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/taskboard`,
    port,
    start,
    stopImmediate: async () => {
      await asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    },
    destroy,
  };
}
