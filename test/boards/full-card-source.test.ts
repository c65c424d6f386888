import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { GENERATED_SQL_SOURCES } from '../../src/boards/json/generated-sources.js';

// The generated SQL sources are what their TypeScript says: the text has one place (the TypeScript),
// the file is what migrate applies. After changing the TypeScript: npm run db:sources.
it('every SQL source generated from TypeScript is up to date (else: npm run db:sources)', () => {
  for (const { file, sql } of GENERATED_SQL_SOURCES()) expect(readFileSync(file, 'utf8'), file).toBe(sql);
});
