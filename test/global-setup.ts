import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openPGliteInstance, openPostgres } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { buildWeb } from '../src/web/build.js';
import { adminQuery, testServerUrl, withDatabaseName } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a migrated embedded database, loaded by each test file. */
    pgliteTemplate: string | null;
    /** A migrated database on the test server, cloned by each test file. */
    postgresTemplate: string | null;
    /** Why building the web app into dist/web failed (the browser tests report it), or null. */
    webBuildError: string | null;
  }
}

/**
 * Migrates one database for the whole run; every test file starts from a copy of it, which
 * costs a fraction of migrating (or of creating a PGlite cluster) per file.
 */
export default async function setup(project: TestProject) {
  // The browser tests load dist/web: built once per run from the current client sources. A
  // failure is handed to them (they fail saying why) rather than failing every other file.
  try {
    await buildWeb();
    project.provide('webBuildError', null);
  } catch (error) {
    project.provide('webBuildError', error instanceof Error ? error.message : String(error));
  }
  const serverUrl = testServerUrl();
  if (serverUrl) {
    const name = `tb_template_${process.pid}_${Date.now()}`;
    await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
    const db = openPostgres({ url: withDatabaseName(serverUrl, name), poolSize: 1 });
    await migrate(db);
    await db.close();
    project.provide('postgresTemplate', name);
    project.provide('pgliteTemplate', null);
    return async () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
  const pglite = new PGlite();
  const db = openPGliteInstance(pglite);
  await migrate(db);
  const dump = await pglite.dumpDataDir('none');
  await db.close();
  const dir = mkdtempSync(path.join(tmpdir(), 'tb-test-'));
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  project.provide('postgresTemplate', null);
  return () => rmSync(dir, { recursive: true, force: true });
}

