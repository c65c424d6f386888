import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbedded } from '../../src/platform/db.js';
import { MIGRATIONS_DIR, migrate } from '../../src/platform/database/migrate.js';
import { writeBaseline } from '../../src/platform/database/write-baseline.js';

/**
 * #49 item 4: a new embedded data directory starts from the baseline (a migrated cluster's dump)
 * instead of creating a cluster and migrating it; migrations newer than the baseline are applied
 * on top; a baseline that does not match the migrations on disk, or this PGlite, is not used; an
 * existing data directory never reads it.
 */
let root: string;
let migrations: string;
let baseline: string;
let names: string[];

const applied = async (db: Awaited<ReturnType<typeof openEmbedded>>) =>
  db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = '_prisma_migrations'`).then(async ([t]) =>
    t!.n === 0 ? 0 : (await db.prisma.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM "_prisma_migrations"'))[0]!.n,
  );

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'baseline-'));
  // The migrations of today but the newest: a baseline written before it was added.
  migrations = path.join(root, 'migrations');
  await cp(MIGRATIONS_DIR, migrations, { recursive: true });
  names = (await readdir(migrations, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const older = path.join(root, 'older');
  await cp(migrations, older, { recursive: true });
  await rm(path.join(older, names.at(-1)!), { recursive: true });
  baseline = path.join(root, 'baseline');
  await writeBaseline(baseline, older);
}, 120_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the embedded database baseline', () => {
  it('seeds a new data directory, migrated already; the migrations newer than it are applied on top', async () => {
    const logs: string[] = [];
    const db = await openEmbedded(path.join(root, 'fresh'), (m) => logs.push(m), baseline);
    try {
      expect(logs).toEqual([`creating the embedded database from its baseline (${names.length - 1} migrations applied already)`]);
      expect(await applied(db)).toBe(names.length - 1);
      const result = await migrate(db, { dir: migrations });
      expect(result).toEqual({ applied: [names.at(-1)], alreadyApplied: names.length - 1 });
      expect(await db.prisma.user.count()).toBe(0);
    } finally {
      await db.close();
    }
  }, 120_000);

  it('is not used when it holds a migration that is not on disk as it was, or was written by another PGlite', async () => {
    for (const change of [
      (m: { pglite: string; migrations: { checksum: string }[] }) => void (m.migrations[3]!.checksum = 'edited'),
      (m: { pglite: string }) => void (m.pglite = '0.4.3'),
    ]) {
      const copy = await mkdtemp(path.join(root, 'changed-'));
      await cp(baseline, copy, { recursive: true });
      const manifest = JSON.parse(await readFile(path.join(copy, 'manifest.json'), 'utf8'));
      change(manifest);
      await writeFile(path.join(copy, 'manifest.json'), JSON.stringify(manifest));
      const logs: string[] = [];
      const db = await openEmbedded(path.join(copy, 'data'), (m) => logs.push(m), copy);
      try {
        expect(logs).toEqual([expect.stringMatching(/^creating the embedded database without a baseline: (the baseline holds migration \S+, which is not in prisma\/migrations as it was|the baseline was written by PGlite 0\.4\.3, this is \S+)$/)]);
        // Created empty, as before the baseline: the runner migrates it.
        expect(await applied(db)).toBe(0);
      } finally {
        await db.close();
      }
    }
  }, 240_000);

  it('never touches a data directory that exists: its data stays', async () => {
    const dir = path.join(root, 'existing');
    const first = await openEmbedded(dir, () => {}, null);
    await migrate(first, { dir: migrations });
    await first.prisma.user.create({ data: { email: 'kept@example.com', name: 'Kept' } });
    await first.close();
    const again = await openEmbedded(dir, () => {}, baseline);
    try {
      expect(await again.prisma.user.findMany({ select: { email: true } })).toEqual([{ email: 'kept@example.com' }]);
      expect(await applied(again)).toBe(names.length);
    } finally {
      await again.close();
    }
  }, 120_000);
});
