import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { triggersIn } from '../../src/platform/database/migrate.js';

// Every SQL function and trigger has one text: the SQL source file beside the TypeScript that
// calls it (src/**/sql/*.sql, applied on every start). A second file under src/ that creates the
// same function or trigger — a TypeScript template, a generated file, a copy "with one change" —
// is a second text that can drift from the first. prisma/migrations/ is history and out of scope:
// what runs is the source's text, which replaces the migration's on every start.
const SRC = path.resolve(import.meta.dirname, '../../src');
const TEXT_FILE = /\.(sql|ts|tsx|js|mjs|cjs)$/;

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && TEXT_FILE.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

const ident = String.raw`(?:"[^"]+"|[A-Za-z_][\w$]*)`;
/** `CREATE [OR REPLACE] FUNCTION name(`, the name as written (quotes dropped, lower case as PostgreSQL folds it). */
const FUNCTION = new RegExp(String.raw`CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(${ident}(?:\.${ident})?|\$\{)`, 'gi');

/** The functions and triggers a file's text creates ("function f", "trigger t on table"). */
function definitionsIn(text: string): string[] {
  const plain = text.replace(/--[^\n]*/g, '');
  const fold = (name: string) => (name.startsWith('"') ? name.slice(1, -1) : name.toLowerCase());
  const functions = [...plain.matchAll(FUNCTION)].map((m) => `function ${m[1] === '${' ? '<built from a template>' : fold(m[1]!)}`);
  const triggers = triggersIn(plain).map((t) => `trigger ${fold(t.name)} on ${fold(t.table)}`);
  return [...functions, ...triggers];
}

describe('one text per rule', () => {
  it('finds what it looks for (a function, a quoted trigger, a template)', () => {
    expect(definitionsIn('create or replace function tb_x(a int) …; CREATE TRIGGER "t" AFTER DELETE ON "Card" …')).toEqual([
      'function tb_x',
      'trigger t on Card',
    ]);
    expect(definitionsIn('`CREATE FUNCTION ${name}(…)`')).toEqual(['function <built from a template>']);
    expect(definitionsIn('-- CREATE FUNCTION only_in_a_comment()')).toEqual([]);
  });

  it('no CREATE FUNCTION or CREATE TRIGGER text is in more than one file under src/ (generated files included)', () => {
    const where = new Map<string, string[]>();
    for (const file of filesUnder(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const definition of new Set(definitionsIn(text))) {
        where.set(definition, [...(where.get(definition) ?? []), path.relative(SRC, file)]);
      }
    }
    const twice = [...where].filter(([, files]) => files.length > 1).map(([definition, files]) => `${definition}: ${files.join(', ')}`);
    const templated = where.get('function <built from a template>') ?? [];
    expect(twice, 'each function and trigger is written in one file').toEqual([]);
    expect(templated, 'a function named by a template cannot be found by its name').toEqual([]);
    // The rules the review found written twice are now here, each once (a file found by its name).
    for (const name of ['tb_full_card', 'tb_lock_card', 'card_search_document', 'card_search_on_card', 'card_search_refresh',
      'card_search_on_comment', 'card_search_on_item', 'card_search_on_checklist', 'attachment_file_deleted']) {
      expect(where.get(`function ${name}`), name).toHaveLength(1);
    }
    for (const table of ['Card', 'Comment', 'ChecklistItem', 'Checklist']) expect(where.get(`trigger card_search on ${table}`), table).toHaveLength(1);
    expect(where.get('trigger attachment_file_deleted on Attachment')).toHaveLength(1);
  });
});
