/**
 * The comments of the server's source, and what in them a reader would try to follow: the source
 * files they name (`cards/move-card.ts`, `card-statement.sql`) and issue numbers (`#44`). Comments
 * are read with TypeScript's own parser (so a `//` inside a string or a URL is not a comment), and
 * `--` comments of the SQL files beside the code line by line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SKIP_DIRS = new Set(['node_modules', 'generated', '.git', 'dist', 'coverage', 'data']);

/** Every file under `dir` (relative to the repository), generated code and dependencies left out. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(path.join(ROOT, at), { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(path.join(at, entry.name));
      } else out.push(path.join(at, entry.name).split(path.sep).join('/'));
    }
  };
  walk(dir);
  return out;
}

export interface Comment {
  file: string;
  line: number;
  text: string;
}

/** The comments of a TypeScript file, each once, with the line it starts on. */
function typescriptComments(file: string, source: string): Comment[] {
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const seen = new Map<number, Comment>();
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.set(range.pos, { file, line: parsed.getLineAndCharacterOfPosition(range.pos).line + 1, text: source.slice(range.pos, range.end) });
    }
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(source, node.getFullStart()));
    take(ts.getTrailingCommentRanges(source, node.getEnd()));
    node.forEachChild(visit);
  };
  visit(parsed);
  take(ts.getLeadingCommentRanges(source, parsed.endOfFileToken.getFullStart()));
  return [...seen.values()];
}

/** The `--` comments of a SQL file (outside quoted strings on their line). */
function sqlComments(file: string, source: string): Comment[] {
  return source.split('\n').flatMap((line, i) => {
    const code = line.replace(/'(?:[^']|'')*'/g, "''");
    const at = code.indexOf('--');
    return at === -1 ? [] : [{ file, line: i + 1, text: code.slice(at) }];
  });
}

/** The comments of src/**\/*.ts and src/**\/*.sql. */
export function sourceComments(): Comment[] {
  return filesUnder('src').flatMap((file) => {
    if (/\.tsx?$/.test(file)) return typescriptComments(file, readFileSync(path.join(ROOT, file), 'utf8'));
    if (file.endsWith('.sql')) return sqlComments(file, readFileSync(path.join(ROOT, file), 'utf8'));
    return [];
  });
}

/** Something a comment names as a file of this repository: a name with a source or doc extension, maybe with folders. */
const FILE_NAME = /(?<![\w./@*-])((?:\.{1,2}\/)*(?:[\w-][\w.-]*\/)*[\w-][\w.-]*\.(?:ts|tsx|mts|mjs|cjs|sql|md|prisma))(?![\w-])/g;

/**
 * The file names a comment mentions: URLs, package paths and double-quoted examples of people's
 * files ("Getting started.md") left out.
 */
export function namedFiles(text: string): string[] {
  const prose = text
    .replace(/\b[a-z][a-z+.-]*:\/\/\S+/gi, ' ')
    .replace(/\bnode_modules\/\S+/g, ' ')
    .replace(/"[^"\n]*"/g, ' ');
  return [...prose.matchAll(FILE_NAME)].map((m) => m[1]!);
}

/**
 * Whether a file name resolves: beside the comment's file (or its folders up to src/), from the
 * repository root, or as the tail of a path of this repository (`cards/sql/move-card.sql`, `retry.ts`).
 */
export function resolver() {
  const all = ['src', 'test', 'scripts', 'bench', 'docs', 'prisma', 'eval'].flatMap(filesUnder);
  const root = readdirSync(ROOT, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
  const known = new Set([...all, ...root]);
  return (from: string, name: string): boolean => {
    const clean = path.posix.normalize(name);
    for (let dir = path.posix.dirname(from); dir !== '.' && dir !== ''; dir = path.posix.dirname(dir)) {
      if (known.has(path.posix.join(dir, clean))) return true;
    }
    if (known.has(clean)) return true;
    if (clean.startsWith('..')) return false;
    return all.some((file) => file.endsWith(`/${clean}`));
  };
}

/** Issue references: `#44`, `#44 item 1`, `issue 47`, `issue #47`; CSS colours (`#555`, `#fff`) and anchors are not. */
export function issueReferences(text: string): string[] {
  const prose = text.replace(/\b[a-z][a-z+.-]*:\/\/\S+/gi, ' ');
  const refs = [...prose.matchAll(/\bissues?\s+#?\d+\b|(?<![\w&/#'"`-])#\d+\b(?![\w-])/gi)].map((m) => m[0]);
  // A colour is three, four, six or eight hex digits; issue numbers here are at most two digits so far.
  return refs.filter((ref) => !/^#(?:\d{3}|\d{4}|\d{6}|\d{8})$/.test(ref));
}
