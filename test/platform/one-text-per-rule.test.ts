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

/**
 * The board rules that were once written both in TypeScript and in the card statements' SQL, each
 * found by what writing it again would look like, with the one file that holds it. The shift of
 * positions, the target position (a requested 0..n, none: the end) with the count of open rows it
 * stands on, the card lock and the version check are SQL functions the TypeScript calls; the
 * activity row too (change-board.ts calls tb_record_activities); whether a key may cross boards is
 * policy.ts's, and the refusal when it may not is tb_cross_board's, which the card move's statement
 * and policy.ts ask; a board's reach is tb_reachable_boards's (with tb_board_role asking it for one
 * board), and access.ts's key test for the board cache, which answers without a query.
 */
const RULES: { rule: string; pattern: RegExp; home: string }[] = [
  { rule: 'a position shift', pattern: /"?position"?\s*=\s*"?position"?\s*[+-]|position:\s*\{\s*(?:increment|decrement)/i, home: 'boards/sql/shift-positions.sql' },
  {
    // `coalesce(p_position, n)`, `x < 0 OR x > n` (either way round, `||` too), `BETWEEN 0 AND n` (a name, not a number), a bound `v_n`.
    rule: 'the target position (a requested 0..n, none: the end)',
    pattern:
      /coalesce\(\s*p_position\b|\b(\w+)\s*<\s*0\s*(?:OR|\|\|)\s*\1\s*>\s*(?:\w+\.)?\w*(?:n|count|length)\b|\b(\w+)\s*>\s*(?:\w+\.)?\w*(?:n|count|length)\s*(?:OR|\|\|)\s*\2\s*<\s*0|\bBETWEEN\s+0\s+AND\s+[a-z_"]|[<>]=?\s*v_n\b/i,
    home: 'boards/sql/target-position.sql',
  },
  {
    // What n is: a list's open cards, a board's open lists, a card's checklists, a checklist's items, counted in SQL or by Prisma.
    rule: 'the open rows a position counts (its n; the end of a list)',
    pattern:
      /count\(\*\)(?:::int)?\s+(?:INTO\s+\w+\s+)?FROM\s+"(?:Card|List|Checklist|ChecklistItem)"|\.(?:card|list)\.(?:count|groupBy)\(\{[^)]*?archived:\s*false|\.(?:checklist|checklistItem)\.count\(/i,
    home: 'boards/sql/target-position.sql',
  },
  { rule: 'the refusal of a position outside 0..n (its wording)', pattern: /must be between 0 and/i, home: 'boards/target-position.ts' },
  { rule: 'the lists\' lock (in id order)', pattern: /FROM\s+"List"(?:\s+(?:AS\s+)?\w+)?\s+WHERE\s+(?:\w+\.)?"?id"?\s*(?:IN\b|=\s*ANY)[^;`]{0,200}?FOR\s+(?:NO\s+KEY\s+)?UPDATE/i, home: 'boards/sql/lock-lists.sql' },
  { rule: "a card's search document written again", pattern: /SET\s+search\s*=\s*card_search_document/i, home: 'boards/search/sql/card-search.sql' },
  { rule: 'the card lock', pattern: /FROM\s+"Card"(?:\s+\w+)?\s+WHERE\s+(?:\w+\.)?id\s*=[^;`]{0,200}?FOR\s+(?:NO\s+KEY\s+)?UPDATE/i, home: 'boards/sql/lock-card.sql' },
  { rule: 'the version check', pattern: /expected\w*\s*(?:<>|!==?)\s*[\w.()"]*version\b|\bversion\s*(?:<>|!==?)\s*[\w.]*expected/i, home: 'boards/sql/lock-card.sql' },
  { rule: 'an activity row', pattern: /INSERT\s+INTO\s+"Activity"|\.activity\.create(?:Many)?\(/i, home: 'boards/activity/sql/record-activities.sql' },
  { rule: 'what a key limited to chosen boards may do (crossing boards, creating them)', pattern: /\.boardIds\s*[!=]==?\s*null\b/, home: 'boards/policy.ts' },
  { rule: 'a key limited to chosen boards, in SQL (reach)', pattern: /\bp_board_ids\s+IS\s+(?:NOT\s+)?NULL\b/i, home: 'boards/sql/board-role.sql' },
  { rule: 'the cross-board refusal (the boards differ and the actor may not cross)', pattern: /\bNOT\s+p_\w*cross\w*\b|\bp_\w*cross\w*\s+IS\s+NOT\s+TRUE\b|!\s*(?:mayCrossBoards\(|\w*\.?crossBoards\b)|\bcross_board'\s*,\s*'from'/i, home: 'boards/sql/cross-board.sql' },
  // A board's reach: tb_reachable_boards in SQL (TypeScript asks it: access.ts reachableBoardIds); in
  // TypeScript only the key test for the board cache, which test/boards/reach-forms.test.ts holds equal to it.
  {
    // In SQL (the caller a member), or as a Prisma where-clause (TypeScript asks the SQL: access.ts reachableBoardIds).
    rule: "a board's reach by membership",
    pattern: /"BoardMember"(?:\s+(?:AS\s+)?\w+)?\s+(?:ON|WHERE)\s+[^;`]{0,80}?"userId"\s*=\s*(?:\$\d|p_user\b)|members:\s*\{\s*some:\s*\{\s*userId\b|boardMember\.find\w*\(\s*\{\s*where:\s*\{\s*userId\b/i,
    home: 'boards/sql/board-role.sql',
  },
  { rule: 'a key limited to chosen boards, in TypeScript (reach)', pattern: /\.boardIds\s*(?:&&|\|\||\?|\.includes\b)|\bin:\s*[\w.]*\.boardIds\b/, home: 'boards/access.ts' },
];

/** A file's text without its comments: a comment that names a rule is not a second text of it. */
function codeOf(file: string, text: string): string {
  return file.endsWith('.sql') ? text.replace(/--[^\n]*/g, '') : text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/[^\n]*/g, '$1');
}

/** Where under `root` each rule of RULES is written but its home (each file relative to `root`). */
function rulesWrittenTwice(root: string): string[] {
  const files = filesUnder(root).map((file) => ({ name: path.relative(root, file), code: codeOf(file, readFileSync(file, 'utf8')) }));
  return RULES.flatMap(({ rule, pattern, home }) =>
    files.filter((f) => f.name !== home && pattern.test(f.code)).map((f) => `${rule}: ${f.name} (its one text: ${home})`),
  );
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
    for (const name of ['tb_shift_cards', 'tb_shift_lists', 'tb_shift_checklists', 'tb_shift_items', 'tb_record_activities', 'tb_drop_other_boards_parts',
      'tb_slot', 'tb_card_slot', 'tb_list_slot', 'tb_checklist_slot', 'tb_item_slot']) {
      expect(where.get(`function ${name}`), name).toHaveLength(1);
    }
  });

  it('sees the target position and its count written again, and not other bounds or counts', () => {
    const pattern = (rule: string) => RULES.find((r) => r.rule.startsWith(rule))!.pattern;
    const position = pattern('the target position');
    const count = pattern('the open rows');
    // How they were written before they had one text (target-position.ts, move-card.sql), and other ways to write them.
    for (const again of ['v_pos := coalesce(p_position, v_n);', 'IF v_pos < 0 OR v_pos > v_n THEN', 'if (requested < 0 || requested > n) throw',
      'if (position > items.length || position < 0)', 'IF p_position NOT BETWEEN 0 AND v_count THEN']) {
      expect(position.test(again), again).toBe(true);
    }
    for (const other of ['if (!title || at < 0 || at > 300) return text;', 'if (lt < 0 || lt + 1 >= length) break;', 'between 0 and 100']) expect(position.test(other), other).toBe(false);
    for (const again of ['SELECT count(*)::int INTO v_n FROM "Card" c WHERE c."listId" = p_list AND NOT c.archived',
      "tx.card.groupBy({ by: ['listId'], where: { listId: { in: listIds }, archived: false }, _count: { _all: true } })",
      'tx.list.count({ where: { boardId, archived: false } })', 'tx.checklist.count({ where: { cardId: card.id } })']) {
      expect(count.test(again), again).toBe(true);
    }
    // A list's deletion reports how many cards it took, archived ones included: not a position.
    expect(count.test('tx.card.count({ where: { listId: current.id } })')).toBe(false);
  });

  it('sees the reach, the lists\' lock and the cross-board refusal written again as they were before they had one text', () => {
    const pattern = (rule: string) => RULES.find((r) => r.rule.startsWith(rule))!.pattern;
    // d970f0f's texts: access.ts's where-clause, board-role.sql's membership, move-card.sql's and lock-lists.ts's locks,
    // policy.ts's and move-card.sql's comparisons; and other ways to write them.
    for (const again of ['members: { some: { userId: actor.userId } }', 'SELECT m.role::text FROM "BoardMember" m WHERE m."boardId" = p_board AND m."userId" = p_user',
      'SELECT role FROM "BoardMember" WHERE "boardId" = $1 AND "userId" = $2']) {
      expect(pattern("a board's reach").test(again), again).toBe(true);
    }
    // Another rule on the same table: who may be an assignee (a member of the card's board), not the caller's reach.
    expect(pattern("a board's reach").test('SELECT 1 FROM "BoardMember" WHERE "boardId" = ${card.boardId} AND "userId" = ${ctx.userId} FOR SHARE')).toBe(false);
    for (const again of ['FROM (SELECT id, "boardId", archived FROM "List" WHERE id IN ((v_read.card)."listId", p_list) ORDER BY id FOR NO KEY UPDATE) l',
      'SELECT id, "boardId", archived FROM "List" WHERE id IN (${Prisma.join(ids)}) ORDER BY id FOR NO KEY UPDATE', 'SELECT * FROM "List" AS l WHERE l.id = ANY($1) ORDER BY l.id FOR UPDATE']) {
      expect(pattern("the lists' lock").test(again), again).toBe(true);
    }
    // A board's lock of all its lists (lock-boards.ts) is the board level of the protocol, its own rule.
    expect(pattern("the lists' lock").test('SELECT id FROM "List" WHERE "boardId" IN (${Prisma.join(ids)}) ORDER BY id FOR NO KEY UPDATE')).toBe(false);
    for (const again of ['IF (v_read.card)."boardId" <> v_list."boardId" AND NOT p_cross_board THEN', 'if (fromBoardId !== toBoardId && !mayCrossBoards(actor)) throw crossBoardRefusal();',
      'if (from !== to && !c.crossBoards) throw', "RETURN json_build_object('error', 'cross_board', 'from', a, 'to', b);"]) {
      expect(pattern('the cross-board refusal').test(again), again).toBe(true);
    }
    expect(pattern('the cross-board refusal').test('const crossBoards = mayCrossBoards(ctx.actor);')).toBe(false);
  });

  it('each rule the TypeScript writes and the card statements share is written in its one file only', () => {
    for (const { rule, pattern, home } of RULES) expect(pattern.test(codeOf(home, readFileSync(path.join(SRC, home), 'utf8'))), `${rule} is in ${home}`).toBe(true);
    expect(rulesWrittenTwice(SRC)).toEqual([]);
  });
});
