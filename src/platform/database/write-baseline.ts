import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openPGliteInstance } from '../db.js';
import { BASELINE_DIR, DUMP, MANIFEST, type Manifest, pgliteVersion } from './embedded-baseline.js';
import { MIGRATIONS_DIR, migrate, readMigrations } from './migrate.js';

/** Creates a cluster, migrates it, and writes its dump and manifest into `dir`; returns the manifest. */
export async function writeBaseline(dir = BASELINE_DIR, migrationsDir = MIGRATIONS_DIR): Promise<Manifest> {
  const pglite = await PGlite.create();
  const db = openPGliteInstance(pglite);
  try {
    await migrate(db, { dir: migrationsDir });
    const dump = Buffer.from(await (await pglite.dumpDataDir('gzip')).arrayBuffer());
    const manifest: Manifest = { pglite: pgliteVersion(), migrations: (await readMigrations(migrationsDir)).map(({ name, checksum }) => ({ name, checksum })) };
    await mkdir(dir, { recursive: true });
    // Written aside and renamed: a start that reads the baseline never sees half a file.
    await writeFile(path.join(dir, `${DUMP}.tmp`), dump);
    await writeFile(path.join(dir, `${MANIFEST}.tmp`), JSON.stringify(manifest, null, 2));
    await rename(path.join(dir, `${DUMP}.tmp`), path.join(dir, DUMP));
    await rename(path.join(dir, `${MANIFEST}.tmp`), path.join(dir, MANIFEST));
    return manifest;
  } finally {
    await db.close();
  }
}

