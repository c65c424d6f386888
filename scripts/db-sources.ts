/**
 * `npm run db:sources`: writes the SQL sources that are generated from TypeScript (the text lives in
 * one place, the TypeScript that also runs it; the file is what `migrate` applies on every start).
 * Today one: src/boards/json/sql/full-card.sql from FULL_CARD_SQL. test/boards/full-card-source.test.ts
 * fails when a file differs from what this would write.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GENERATED_SQL_SOURCES } from '../src/boards/json/generated-sources.js';

for (const { file, sql } of GENERATED_SQL_SOURCES()) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, sql);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
