/**
 * `npm run route-map`: writes docs/route-map.md, route → rule → SQL in one lookup (#48): for every
 * route, its operationId, the file and line it is declared at, the domain functions its handler
 * calls, and for the board writes, the rules those call (two levels down, within the module) and
 * the SQL functions they run with the file that defines each. Read from the source text (imports and
 * calls), so it is what the code says, not what a comment says. test/docs/route-map.test.ts fails
 * when the file differs from what this writes.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
export const ROUTE_MAP_FILE = path.join(ROOT, 'docs', 'route-map.md');

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');
const sourceCache = new Map<string, string>();
const read = (file: string) => {
  let text = sourceCache.get(file);
  if (text === undefined) sourceCache.set(file, (text = readFileSync(file, 'utf8')));
  return text;
};

/** Local name → the file it is imported from (relative imports of this repository only). */
function importsOf(file: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of read(file).matchAll(/import\s+(?!type\s)\{([^}]*)\}\s+from\s+'(\.[^']+)'/g)) {
    const target = path.resolve(path.dirname(file), m[2]!.replace(/\.js$/, '.ts'));
    for (const part of m[1]!.split(',')) {
      const spec = part.trim();
      if (!spec || spec.startsWith('type ')) continue;
      const local = spec.split(/\s+as\s+/).pop()!.trim();
      out.set(local, target);
    }
  }
  return out;
}

/** The imported functions a piece of code calls: `name(`, from files outside `exclude`. */
function calls(code: string, imports: Map<string, string>, keep: (file: string) => boolean): { name: string; file: string }[] {
  const found = new Map<string, string>();
  for (const [name, file] of imports) {
    if (!keep(file)) continue;
    if (new RegExp(`(?<![\\w.$])${name.replace(/\$/g, '\\$')}\\s*\\(`).test(code)) found.set(name, file);
  }
  return [...found].map(([name, file]) => ({ name, file }));
}

function walk(dir: string, test: (file: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' ? [] : walk(full, test);
    return test(full) ? [full] : [];
  });
}

/** SQL function → the source file that defines it (src/ ** /sql/*.sql), whatever its name. */
function sqlFunctions(): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of walk(SRC, (f) => f.endsWith('.sql'))) {
    for (const m of read(file).matchAll(/CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(\w+)/gi)) out.set(m[1]!, file);
  }
  return out;
}

interface Trigger {
  fn: string;
  events: { kind: 'insert' | 'update' | 'delete'; columns: string[] | null }[];
}

/** Table → its triggers: the events each fires on and the function it runs. */
function triggersByTable(): Map<string, Trigger[]> {
  const out = new Map<string, Trigger[]>();
  for (const file of walk(SRC, (f) => f.endsWith('.sql'))) {
    const re = /CREATE\s+(?:OR\s+REPLACE\s+)?TRIGGER\s+\w+\s+(?:BEFORE|AFTER|INSTEAD\s+OF)\s+([^;]*?)\s+ON\s+"?(\w+)"?[^;]*?EXECUTE\s+(?:FUNCTION|PROCEDURE)\s+(\w+)/gi;
    for (const m of read(file).matchAll(re)) {
      const events = m[1]!.split(/\s+OR\s+/i).map((e) => {
        const [kind, ...rest] = e.trim().split(/\s+/);
        const of = /^OF\s+(.*)$/i.exec(rest.join(' '));
        return { kind: kind!.toLowerCase() as 'insert' | 'update' | 'delete', columns: of ? of[1]!.split(',').map((c) => c.trim().replace(/"/g, '')) : null };
      });
      out.set(m[2]!, [...(out.get(m[2]!) ?? []), { fn: m[3]!, events }]);
    }
  }
  return out;
}

interface Write {
  table: string;
  kind: 'insert' | 'update' | 'delete';
  /** The columns an UPDATE sets. */
  columns: string[];
}

/** The writes a text makes: INSERT INTO "T", DELETE FROM "T", UPDATE "T" SET a = …, "b" = … (up to its WHERE), and Prisma's. */
function writesIn(text: string): Write[] {
  const out: Write[] = [];
  for (const m of text.matchAll(/\bINSERT\s+INTO\s+"(\w+)"/gi)) out.push({ table: m[1]!, kind: 'insert', columns: [] });
  for (const m of text.matchAll(/\bDELETE\s+FROM\s+"(\w+)"/gi)) out.push({ table: m[1]!, kind: 'delete', columns: [] });
  for (const m of text.matchAll(/\bUPDATE\s+"(\w+)"\s+(?:\w+\s+)?SET\s+([\s\S]*?)(?:\bWHERE\b|\bFROM\b|;|\$\$|`)/gi)) {
    out.push({ table: m[1]!, kind: 'update', columns: [...m[2]!.matchAll(/(?:^|,)\s*"?(\w+)"?\s*=/g)].map((c) => c[1]!) });
  }
  // Prisma's writes: `tx.comment.create({ data: { text, … } })` writes "Comment" (an update: the keys of its data).
  for (const m of text.matchAll(/\.(\w+)\.(create|createMany|upsert|update|updateMany|delete|deleteMany)\(([\s\S]{0,400})/g)) {
    const table = m[1]![0]!.toUpperCase() + m[1]!.slice(1);
    const kind = m[2]!.startsWith('create') ? 'insert' : m[2]!.startsWith('delete') ? 'delete' : 'update';
    const data = /data:\s*\{([^}]*)\}/.exec(m[3]!)?.[1] ?? '';
    out.push({ table, kind, columns: [...data.matchAll(/(?:^|,)\s*(\w+)\s*[:,}]?/g)].map((c) => c[1]!) });
    if (m[2] === 'upsert') out.push({ table, kind: 'insert', columns: [] });
  }
  return out;
}

/** Whether a write fires a trigger: its kind is one of the trigger's events (an UPDATE OF: one of the columns set). */
const fires = (trigger: Trigger, write: Write) =>
  trigger.events.some((e) => e.kind === write.kind && (e.kind !== 'update' || !e.columns || e.columns.some((c) => write.columns.includes(c))));

interface Route {
  method: string;
  url: string;
  operationId: string | null;
  file: string;
  handlerCalls: { name: string; file: string }[];
}

const NOT_DOMAIN = /\/(routes|platform)\/|\/schemas\.ts$|\/presenters\.ts$|\/web-schemas\.ts$|\/config\.ts$/;

function routes(): Route[] {
  const out: Route[] = [];
  for (const file of walk(SRC, (f) => /\/routes(\/[^/]+)?\.ts$/.test(f)).sort()) {
    const text = read(file);
    const imports = importsOf(file);
    // On the app or on a scope of its own (an import's body parsers, a session-only group): `app.post('/…'`,
    // `scope.withTypeProvider<ZodTypeProvider>().post('/…'`.
    // A path may be a template on a constant of the file (`${base}/:endpointId`, const base = '…').
    const constants = new Map([...text.matchAll(/\bconst (\w+) = '([^']*)'/g)].map((m) => [m[1]!, m[2]!]));
    const starts = [...text.matchAll(/\b\w+(?:\.withTypeProvider<\w+>\(\))?\.(get|post|put|patch|delete)\(\s*(?:(['`])(\/[^'`]*|\$\{\w+\}[^'`]*)\2|(\w+)\s*,)/g)]
      .filter((m) => m[4] === undefined || constants.has(m[4]));
    starts.forEach((m, i) => {
      const block = text.slice(m.index, starts[i + 1]?.index ?? text.length);
      out.push({
        method: m[1]!.toUpperCase(),
        url: (m[3] ?? `\${${m[4]}}`).replace(/\$\{(\w+)\}/g, (whole, name: string) => constants.get(name) ?? whole),
        operationId: /operationId:\s*'([^']+)'/.exec(block)?.[1] ?? null,
        file,
        handlerCalls: calls(block, imports, (f) => !NOT_DOMAIN.test(f)),
      });
    });
  }
  return out;
}

/**
 * The text of `name`'s definition in `file`: a function declaration up to its closing brace at
 * column 0, or a const up to the end of its statement (its line, when it ends there); the whole
 * file when it is not found.
 */
function definitionOf(file: string, name: string): string {
  const text = read(file);
  const at = new RegExp(`^(?:export\\s+)?(?:async\\s+)?(?:function\\s*\\*?\\s*${name}\\b|(?:const|let)\\s+${name}\\b)`, 'm').exec(text);
  if (!at) return text;
  const rest = text.slice(at.index);
  // A const written on one line ends there.
  const first = rest.slice(0, rest.indexOf('\n') + 1 || rest.length);
  if (!at[0].includes('function') && /;\s*$/.test(first)) return first;
  const close = /^(?:\}|\};|\);|`;)\s*$/m.exec(rest.slice(1));
  return close ? rest.slice(0, close.index + 1 + close[0].length) : rest;
}

/** SQL function → the text of its definition (to the next CREATE or the file's end). */
function sqlDefinition(name: string, file: string): string {
  const text = read(file);
  const at = new RegExp(`CREATE\\s+(?:OR\\s+REPLACE\\s+)?FUNCTION\\s+${name}\\b`, 'i').exec(text);
  if (!at) return '';
  const rest = text.slice(at.index + at[0].length);
  const next = /CREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|TRIGGER)/i.exec(rest);
  return next ? rest.slice(0, next.index) : rest;
}

/** How deep the rules listed go below the domain function, and how deep the SQL they run is looked for. */
const RULE_DEPTH = 2;
const SQL_DEPTH = 4;

/**
 * What a domain function leads to: the functions of its module it uses, RULE_DEPTH levels down
 * from its own text; the SQL functions named on the way down to SQL_DEPTH, with every one those
 * call in turn; and the trigger functions that the writes of that SQL fire.
 */
function rulesOf(entry: { name: string; file: string }, sql: Map<string, string>, triggers: Map<string, Trigger[]>) {
  const module = rel(entry.file).split('/')[1];
  const inModule = (f: string) => rel(f).split('/')[1] === module && !NOT_DOMAIN.test(f);
  const rules = new Map<string, { name: string; file: string }>();
  const seen = new Set<string>();
  const sqlUsed = new Map<string, string>();
  const writes: Write[] = [];
  const sqlIn = (text: string) => {
    for (const m of text.matchAll(/\b(\w+)\s*\(/g)) if (sql.has(m[1]!)) sqlUsed.set(m[1]!, sql.get(m[1]!)!);
    writes.push(...writesIn(text));
  };
  const visit = (name: string, file: string, depth: number) => {
    let text: string;
    try {
      text = definitionOf(file, name);
    } catch {
      return;
    }
    sqlIn(text);
    if (depth === SQL_DEPTH) return;
    // Names defined in the same file, and those imported from the module, that this text uses.
    const local = new Map<string, string>();
    for (const m of read(file).matchAll(/^(?:export\s+)?(?:async\s+)?(?:function\s+|const\s+)(\w+)/gm)) if (m[1] !== name) local.set(m[1]!, file);
    for (const [n, f] of importsOf(file)) if (inModule(f)) local.set(n, f);
    for (const [n, f] of local) {
      if (!new RegExp(`(?<![\\w.$])${n}\\b`).test(text)) continue;
      const key = `${rel(f)}#${n}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (depth < RULE_DEPTH) rules.set(key, { name: n, file: f });
      visit(n, f, depth + 1);
    }
  };
  visit(entry.name, entry.file, 0);
  // The SQL functions those call, and so on, and the trigger functions their writes fire.
  const done = new Set<string>();
  for (let pending = [...sqlUsed.keys()]; pending.length > 0; pending = [...sqlUsed.keys()].filter((n) => !done.has(n))) {
    for (const name of pending) {
      done.add(name);
      sqlIn(sqlDefinition(name, sqlUsed.get(name)!));
    }
    for (const w of writes) for (const t of triggers.get(w.table) ?? []) if (fires(t, w) && sql.has(t.fn)) sqlUsed.set(t.fn, sql.get(t.fn)!);
  }
  // Functions only: constants and types are how, not what.
  const functions = [...rules.values()].filter((r) => new RegExp(`^(?:export\\s+)?(?:async\\s+)?function\\s*\\*?\\s*${r.name}\\b`, 'm').test(read(r.file)));
  return { rules: functions, sql: [...sqlUsed].map(([name, f]) => ({ name, file: f })) };
}

/**
 * Route file → the prefix app.ts registers it under (`{ prefix: '/api' }`): the route plugins
 * registered inside a prefixed register call are read from app.ts's text, and each is traced to
 * the file it is imported from.
 */
function prefixes(): Map<string, string> {
  const app = path.join(SRC, 'app.ts');
  const text = read(app);
  const imports = importsOf(app);
  const out = new Map<string, string>();
  for (const m of text.matchAll(/\{\s*prefix:\s*'([^']+)'\s*\}/g)) {
    // Back to the `(` that opens this register call's arguments.
    let depth = 0;
    let at = m.index - 1;
    for (; at >= 0; at--) {
      if (text[at] === ')') depth++;
      else if (text[at] === '(' && depth-- === 0) break;
    }
    for (const r of text.slice(at, m.index).matchAll(/\.register\(\s*(\w+)/g)) {
      const file = imports.get(r[1]!);
      if (file) out.set(file, m[1]!);
    }
  }
  return out;
}

const code = (s: string) => `\`${s}\``;
const cell = (s: string) => s.replace(/\|/g, '\\|');

export function routeMap(): string {
  const all = routes();
  const sql = sqlFunctions();
  const triggers = triggersByTable();
  const boardWrites = all.filter((r) => rel(r.file).startsWith('src/boards/') && r.method !== 'GET');
  const prefixOf = prefixes();
  const lines = [
    '# Route map',
    '',
    'Generated by `npm run route-map` (scripts/route-map.ts) from the source: imports and calls, not comments.',
    '`test/docs/route-map.test.ts` fails when this file differs from what the script writes: after adding or moving a',
    'route, or changing what a rule calls, run it again. (No line numbers: they would change with every edit.)',
    '',
    '## Board writes: route → rule → SQL',
    '',
    'For each board write: the domain function its route calls, the rules that function calls inside `src/boards/`',
    `(${RULE_DEPTH} levels down), and every SQL function they run (looked for ${SQL_DEPTH} levels down, with the SQL functions`,
    'those call and the trigger functions their writes fire), with the file that defines each.',
    '',
  ];
  for (const r of boardWrites) {
    lines.push(`### ${r.method} ${prefixOf.get(r.file) ?? ''}${r.url}${r.operationId ? ` (${code(r.operationId)})` : ''}`, '');
    lines.push(`- route: [${rel(r.file)}](../${rel(r.file)})`);
    for (const c of r.handlerCalls) {
      const { rules, sql: used } = rulesOf(c, sql, triggers);
      lines.push(`- domain: ${code(c.name)} in [${rel(c.file)}](../${rel(c.file)})`);
      if (rules.length) lines.push(`  - rules: ${rules.map((x) => `${code(x.name)} ([${rel(x.file)}](../${rel(x.file)}))`).join(', ')}`);
      if (used.length) lines.push(`  - SQL: ${used.map((x) => `${code(x.name)} ([${rel(x.file)}](../${rel(x.file)}))`).join(', ')}`);
    }
    lines.push('');
  }
  lines.push('## Every route', '', '| route | operationId | declared in | calls |', '| --- | --- | --- | --- |');
  for (const r of all) {
    const prefix = prefixOf.get(r.file) ?? '';
    lines.push(
      `| ${cell(`${r.method} ${prefix}${r.url}`)} | ${r.operationId ? code(r.operationId) : ''} | [${rel(r.file)}](../${rel(r.file)}) | ${r.handlerCalls
        .map((c) => `${code(c.name)} (${rel(c.file)})`)
        .join(', ')} |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(ROUTE_MAP_FILE, routeMap());
  console.log(`wrote ${rel(ROUTE_MAP_FILE)}`);
}
