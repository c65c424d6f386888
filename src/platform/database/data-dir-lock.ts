import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * PGlite is a single-process database: two processes opening one data directory corrupt it.
 * This lock file (with the holder's pid) keeps a second process out and tells it who holds it.
 */
export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`the embedded database in ${dataDir} is in use by process ${pid}`);
  }
}

export interface DataDirLock {
  release(): void;
}

export function lockPath(dataDir: string): string {
  return path.join(dataDir, 'db.lock');
}

/** The pid holding dataDir, or null when no live process holds it. */
export function dataDirHolder(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(JSON.parse(readFileSync(lockPath(dataDir), 'utf8')).pid);
  } catch {
    return null;
  }
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
}

/** Held by this process; a pid in the file equal to ours otherwise means a previous run (pid 1 in containers). */
const heldHere = new Set<string>();

export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = lockPath(dataDir);
  if (heldHere.has(file)) throw new DataDirBusyError(dataDir, process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
      closeSync(fd);
      heldHere.add(file);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          heldHere.delete(file);
          try {
            unlinkSync(file);
          } catch {
            // already gone: nothing to release
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = dataDirHolder(dataDir);
      if (holder !== null && holder !== process.pid) throw new DataDirBusyError(dataDir, holder);
      // Left behind by a process that died (or by ourselves): take it over.
      try {
        unlinkSync(file);
      } catch {
        // someone else removed it first; retry the exclusive create
      }
    }
  }
  throw new Error(`could not lock ${file}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
