/**
 * `npm run db:sources`: writes the parts of SQL sources that are generated from TypeScript, between
 * a source's `-- begin NAME` / `-- end NAME` lines (the function around them is written once, in the
 * file; the file is what `migrate` applies on every start). Today one: FULL_CARD_SQL in
 * src/boards/json/sql/full-card.sql. test/boards/full-card-source.test.ts fails when a file differs
 * from what this would write.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GENERATED_SQL_SOURCES } from '../src/boards/json/generated-sources.js';

for (const { file, sql } of GENERATED_SQL_SOURCES()) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, sql);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
