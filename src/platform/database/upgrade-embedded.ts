import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * The PostgreSQL major of the embedded database this build runs (PGlite 0.6 is PostgreSQL 19).
 * A data directory of another major cannot be opened: PostgreSQL keeps no on-disk compatibility
 * between majors, so it is carried over by a dump and a restore, as pg_upgrade's logical path.
 */
export const EMBEDDED_PG_MAJOR = '19';

/** Majors this build can carry over, each with the PGlite release that wrote it. */
const READERS: Record<string, () => Promise<OldPGlite>> = {
  // PGlite 0.3 and 0.4 (this project up to December 2026) ship PostgreSQL 17.
  '17': async () => {
    const { PGlite: PGlite04 } = await import('pglite-v04');
    return PGlite04 as unknown as OldPGlite;
  },
};

type OldPGlite = new (dataDir: string) => {
  waitReady: Promise<void>;
  close(): Promise<void>;
};

export interface UpgradeOutcome {
  from: string;
  to: string;
  /** Where the data directory written by the older PostgreSQL was kept, untouched. */
  keptAt: string;
  /** The plain SQL dump the new database was restored from (kept beside it). */
  dumpFile: string;
}

/** The major written in a PostgreSQL data directory, or null when there is none yet. */
export function dataDirMajor(pgdata: string): string | null {
  const file = path.join(pgdata, 'PG_VERSION');
  if (!existsSync(file)) return null;
  return readFileSync(file, 'utf8').trim();
}

/**
 * Carries an embedded database written by an older PGlite over to this one, before it is opened:
 * dump with the old PGlite's own pg_dump, restore into a new directory, and keep the old directory
 * beside it (`pgdata.pg17`) so nothing is lost if anything goes wrong. Returns null when nothing
 * needed doing. Throws, with the old directory back in place, when the carry-over fails.
 */
export async function upgradeEmbeddedData(
  pgdata: string,
  log: (message: string) => void,
): Promise<UpgradeOutcome | null> {
  const major = dataDirMajor(pgdata);
  if (major === null || major === EMBEDDED_PG_MAJOR) return null;
  const reader = READERS[major];
  if (!reader) {
    throw new Error(
      `The embedded database in ${pgdata} was written by PostgreSQL ${major}; this version runs PostgreSQL ` +
        `${EMBEDDED_PG_MAJOR} and can carry over only ${Object.keys(READERS).join(', ')}. Export it with the ` +
        'version that wrote it (pg_dump over the admin socket), or move the directory away to start empty.',
    );
  }
  const keptAt = `${pgdata}.pg${major}`;
  const dumpFile = `${pgdata}.pg${major}.sql`;
  if (existsSync(keptAt)) {
    throw new Error(
      `${keptAt} already exists (an earlier carry-over that did not finish?): move it away and start again; ` +
        `${pgdata} was not changed.`,
    );
  }
  log(
    `The embedded database was written by PostgreSQL ${major} (an earlier PGlite); carrying it over to ` +
      `PostgreSQL ${EMBEDDED_PG_MAJOR} once. The old directory is kept at ${keptAt}.`,
  );
  const started = Date.now();
  const OldPGliteClass = await reader();
  const old = new OldPGliteClass(pgdata);
  await old.waitReady;
  let sql: string;
  try {
    const { pgDump } = await import('pglite-tools-v03/pg_dump');
    // Plain SQL the new server replays with exec(); no owners or grants (PGlite has one role).
    const file = await pgDump({ pg: old as never, args: ['--no-owner', '--no-privileges'] });
    sql = await file.text();
  } finally {
    await old.close();
  }
  writeFileSync(dumpFile, sql);
  renameSync(pgdata, keptAt);
  try {
    const fresh = await PGlite.create({ dataDir: pgdata });
    try {
      // pg_dump empties search_path for the rest of the session; the restore is its own session.
      await fresh.exec(sql);
    } finally {
      await fresh.close();
    }
  } catch (error) {
    rmSync(pgdata, { recursive: true, force: true });
    renameSync(keptAt, pgdata);
    throw new Error(
      `Carrying the embedded database over to PostgreSQL ${EMBEDDED_PG_MAJOR} failed; ${pgdata} is as it was ` +
        `(the dump is at ${dumpFile}): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  log(
    `The embedded database now runs on PostgreSQL ${EMBEDDED_PG_MAJOR} (${Math.round((Date.now() - started) / 100) / 10} s). ` +
      `Once you have checked it, ${keptAt} and ${dumpFile} can be deleted.`,
  );
  return { from: major, to: EMBEDDED_PG_MAJOR, keptAt, dumpFile };
}
