import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/platform/db.js';
import { MIGRATIONS_DIR, migrate, MigrationError, readMigrations } from '../../src/platform/database/migrate.js';
import { diffMigrationsToSchema, SCHEMA_PATH } from '../../src/platform/database/schema-diff.js';
import { createTestDatabase } from '../helper.js';

describe('schema.prisma and prisma/migrations', () => {
  it('agree exactly: replaying the migrations gives schema.prisma (empty diff)', async () => {
    const sql = await diffMigrationsToSchema();
    expect(sql, 'schema.prisma changed without a migration: run `npm run db:migration -- <name>`').toBe('');
  }, 90_000); // replays every migration in a fresh PGlite: 10 s quiet, past 30 s on a loaded CI machine

  it('disagree as soon as schema.prisma gains a field without a migration', async () => {
    const schema = readFileSync(SCHEMA_PATH, 'utf8').replace(
      /model User \{\n/,
      'model User {\n  nickname String?\n',
    );
    const sql = await diffMigrationsToSchema({ schema });
    expect(sql).toMatch(/ALTER TABLE "User" ADD COLUMN\s+"nickname" TEXT/);
  }, 90_000);
});

describe('the migration runner', () => {
  let db: Database;
  let dir: string;
  beforeAll(async () => {
    db = await createTestDatabase(); // already migrated with the real migrations
  });
  afterAll(async () => {
    await db.close();
  });

  /** A copy of the real migrations folder plus extra migrations, to run against `db`. */
  function migrationsWith(extra: Record<string, string>, edit?: (name: string, sql: string) => string): string {
    dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    if (edit) {
      for (const m of readFileSyncDirs(dir)) writeFileSync(m.file, edit(m.name, readFileSync(m.file, 'utf8')));
    }
    for (const [name, sql] of Object.entries(extra)) {
      mkdirSync(path.join(dir, name));
      writeFileSync(path.join(dir, name, 'migration.sql'), sql);
    }
    return dir;
  }
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('records applied migrations the way Prisma does (name, sha256 checksum, finished)', async () => {
    const files = await readMigrations();
    const rows = await db.prisma.$queryRawUnsafe<{ migration_name: string; checksum: string; finished_at: Date | null }[]>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const [i, row] of rows.entries()) {
      expect(row.checksum).toBe(createHash('sha256').update(files[i]!.sql).digest('hex'));
      expect(row.finished_at).not.toBeNull();
    }
  });

  it('applies nothing twice', async () => {
    await expect(migrate(db)).resolves.toEqual({ applied: [], alreadyApplied: (await readMigrations()).length });
  });

  it('applies a new migration once, in order, then never again', async () => {
    const d = migrationsWith({ '29990101000000_add_probes': 'CREATE TABLE "MigrationProbe" (id SERIAL PRIMARY KEY);' });
    await expect(migrate(db, { dir: d })).resolves.toMatchObject({ applied: ['29990101000000_add_probes'] });
    await expect(migrate(db, { dir: d })).resolves.toMatchObject({ applied: [] });
    await db.prisma.$executeRawUnsafe('INSERT INTO "MigrationProbe" DEFAULT VALUES');
  });

  it('rolls back a failing migration entirely and says which one failed', async () => {
    const d = migrationsWith({
      '29990101000000_add_probes': 'CREATE TABLE "MigrationProbe" (id SERIAL PRIMARY KEY);',
      '29990102000000_broken': 'CREATE TABLE "Half" (id INT);\nSELECT no_such_function();',
    });
    await expect(migrate(db, { dir: d })).rejects.toThrow(/migration 29990102000000_broken failed and was rolled back/);
    const half = await db.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'Half'`,
    );
    expect(half[0]!.n).toBe(0);
    const recorded = await db.prisma.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '29990102000000_broken'`,
    );
    expect(recorded).toHaveLength(0);
  });

  it('refuses to run when an applied migration was edited', async () => {
    const d = migrationsWith({}, (name, sql) => (name.endsWith('_init') ? `${sql}\n-- edited\n` : sql));
    await expect(migrate(db, { dir: d })).rejects.toThrow(/_init was edited after it was applied/);
  });

  it('refuses to run code older than the database', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'migrations-'));
    try {
      await expect(migrate(db, { dir: empty })).rejects.toThrow(MigrationError);
      await expect(migrate(db, { dir: empty })).rejects.toThrow(/not in prisma\/migrations/);
    } finally {
      rmSync(empty, { recursive: true });
    }
  });

  it('refuses to continue past a migration Prisma left failed', async () => {
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ('failed-1', 'x', '29990103000000_left_failed', now())`,
    );
    try {
      await expect(migrate(db)).rejects.toThrow(/29990103000000_left_failed failed earlier/);
    } finally {
      await db.prisma.$executeRawUnsafe(`DELETE FROM "_prisma_migrations" WHERE id = 'failed-1'`);
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL)(
    'lets only one of two concurrent runners apply a migration (PostgreSQL advisory lock)',
    async () => {
      const d = migrationsWith({
        '29990101000000_add_probes': 'CREATE TABLE "MigrationProbe" (id SERIAL PRIMARY KEY);',
        '29990104000000_slow': 'SELECT pg_sleep(0.3); CREATE TABLE "Gadget" (id INT);',
      });
      const results = await Promise.all([migrate(db, { dir: d }), migrate(db, { dir: d })]);
      expect(results.flatMap((r) => r.applied)).toEqual(['29990104000000_slow']);
    },
  );
});

function readFileSyncDirs(dir: string) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => ({ name: e.name, file: path.join(dir, e.name, 'migration.sql') }));
}

describe('triggers made by SQL sources', () => {
  it('are dropped before pending migrations and made again after them, so a migration may drop a column one names', async () => {
    const db = await createTestDatabase();
    const dirs: string[] = [];
    const temp = (prefix: string) => {
      const d = mkdtempSync(path.join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    };
    const migrations = (extra: Record<string, string>) => {
      const d = temp('migrations-');
      cpSync(MIGRATIONS_DIR, d, { recursive: true });
      for (const [name, sql] of Object.entries(extra)) {
        mkdirSync(path.join(d, name));
        writeFileSync(path.join(d, name, 'migration.sql'), sql);
      }
      return d;
    };
    const sources = (column: string) => {
      const d = temp('sources-');
      mkdirSync(path.join(d, 'gadgets', 'sql'), { recursive: true });
      writeFileSync(
        path.join(d, 'gadgets', 'sql', 'gadget-changed.sql'),
        `CREATE OR REPLACE FUNCTION tb_gadget_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
-- a comment that mentions CREATE TRIGGER x ON y must not count
CREATE OR REPLACE TRIGGER tb_gadget_changed AFTER UPDATE OF ${column} ON "Gadget" FOR EACH ROW EXECUTE FUNCTION tb_gadget_changed();`,
      );
      return d;
    };
    try {
      const gadgets = { '29990201000000_gadgets': 'CREATE TABLE "Gadget" (id SERIAL PRIMARY KEY, label TEXT, colour TEXT);' };
      await migrate(db, { dir: migrations(gadgets), sources: sources('colour') });
      const dropColour = { ...gadgets, '29990202000000_drop_colour': 'ALTER TABLE "Gadget" DROP COLUMN colour;' };
      // Without the drop: "cannot drop column colour of table "Gadget" because other objects depend on it".
      await expect(migrate(db, { dir: migrations(dropColour), sources: sources('label') })).resolves.toMatchObject({ applied: ['29990202000000_drop_colour'] });
      const triggers = await db.prisma.$queryRawUnsafe<{ tgname: string }[]>(`SELECT tgname FROM pg_trigger WHERE tgname = 'tb_gadget_changed'`);
      expect(triggers).toHaveLength(1);
    } finally {
      await db.close();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }
  }, 120_000);
});
