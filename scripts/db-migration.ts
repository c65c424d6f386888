/**
 * `npm run db:migration -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql
 * with the SQL that takes the existing migrations to schema.prisma. Offline: it uses Prisma's
 * WebAssembly schema engine against a throwaway embedded database, not the native binary.
 */
import { mkdir, writeFile, access } from 'node:fs/promises';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../src/platform/database/migrate.js';
import { diffMigrationsToSchema, MIGRATION_LOCKFILE } from '../src/platform/database/schema-diff.js';

const raw = process.argv.slice(2).join('_');
const name = raw.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
if (!name) {
  console.error('usage: npm run db:migration -- <name>   (e.g. add_card_due_dates)');
  process.exit(1);
}

const sql = await diffMigrationsToSchema();
if (!sql.trim()) {
  console.log('schema.prisma already matches the migrations: nothing to write');
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name}`);
await mkdir(dir, { recursive: true });
await writeFile(path.join(dir, 'migration.sql'), sql);
const lockfile = path.join(MIGRATIONS_DIR, 'migration_lock.toml');
await access(lockfile).catch(() => writeFile(lockfile, MIGRATION_LOCKFILE));
console.log(`wrote ${path.relative(process.cwd(), path.join(dir, 'migration.sql'))}:\n\n${sql}`);
