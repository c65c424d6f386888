/**
 * A small reader of the Markdown we write (CommonMark as GitHub renders it), enough to check
 * links: the headings a page has (as GitHub's anchors: github-slugger's rules), and the link
 * destinations it holds — inline links and images, reference definitions, and `src`/`href` of the
 * HTML we embed. Code (fenced blocks, indented blocks after a blank line, inline spans) is left
 * out: a `[x](y)` written in code is not a link.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface Link {
  line: number;
  target: string;
}

export interface Page {
  headings: string[];
  anchors: Set<string>;
  links: Link[];
}

/** The page's lines with code blocks blanked (kept as empty lines, so line numbers hold). */
function proseLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  let fence: string | null = null;
  let previousBlank = true;
  let inIndented = false;
  for (const line of lines) {
    if (fence) {
      // A fence closes with the same character, at least as long, and nothing after it.
      if (new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(line)) fence = null;
      out.push('');
      continue;
    }
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (open) {
      fence = open[1]!;
      out.push('');
      previousBlank = false;
      continue;
    }
    // An indented code block starts only after a blank line (an indented line right after a
    // paragraph or list item continues it).
    const indented = /^( {4}|\t)/.test(line) && line.trim() !== '';
    if (indented && (previousBlank || inIndented) && !inListContext(out)) {
      inIndented = true;
      out.push('');
      continue;
    }
    inIndented = indented && inIndented;
    previousBlank = line.trim() === '';
    out.push(line);
  }
  return out;
}

/** Whether the last non-blank prose line belongs to a list, where indentation continues an item. */
function inListContext(out: string[]): boolean {
  for (let i = out.length - 1; i >= 0; i--) {
    const l = out[i]!;
    if (l.trim() === '') continue;
    return /^\s*([-*+]|\d+[.)])\s/.test(l) || /^\s{2,}\S/.test(l);
  }
  return false;
}

/** Inline code spans removed (a run of N backticks closes with a run of exactly N). */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (m) => ' '.repeat(m.length));
}

/** The text GitHub shows for a heading's Markdown: code kept as text, links as their text, marks gone. */
export function headingText(markdown: string): string {
  return markdown
    .replace(/\s+#+\s*$/, '') // closing sequence
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_]+)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/~~(.+?)~~/g, '$1')
    .trim();
}

/** GitHub's anchor for a heading text (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

export function readPage(text: string): Page {
  const lines = proseLines(text);
  const headings: string[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const links: Link[] = [];
  lines.forEach((raw, index) => {
    const line = withoutCodeSpans(raw);
    const heading = /^ {0,3}#{1,6}(?:\s+(.*))?$/.exec(raw);
    if (heading) {
      const text = headingText(heading[1] ?? '');
      headings.push(text);
      const base = slug(text);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    // Explicit anchors: <a id="…"> / <a name="…">.
    for (const m of line.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/gi)) anchors.add(m[1]!);
    // Inline links and images: [text](dest "title") or [text](<dest>).
    for (const m of line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line: index + 1, target: m[1]!.replace(/^<|>$/g, '') });
    }
    // Reference definitions: [label]: dest
    const ref = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
    if (ref) links.push({ line: index + 1, target: ref[1]!.replace(/^<|>$/g, '') });
    // HTML we embed.
    for (const m of line.matchAll(/<(?:img|a|source)\s[^>]*?(?:src|href)="([^"]+)"/gi)) {
      links.push({ line: index + 1, target: m[1]! });
    }
  });
  return { headings, anchors, links };
}

/**
 * The problems of one file's links: a relative path that names nothing, an anchor no heading has
 * (in the page itself or the Markdown page linked), an absolute URL that does not parse.
 * `root` is the repository (a path starting with `/` is taken from there, as GitHub does).
 */
export function checkLinks(file: string, root: string, read: (file: string) => Page = readFile): string[] {
  const page = read(file);
  const problems: string[] = [];
  const where = (l: Link) => `${path.relative(root, file)}:${l.line}: ${l.target}`;
  for (const link of page.links) {
    const target = link.target;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
      if (/^https?:/i.test(target)) {
        let ok = false;
        try {
          const url = new URL(target);
          ok = url.hostname.length > 0 && !/\s/.test(target);
        } catch {
          ok = false;
        }
        if (!ok) problems.push(`${where(link)} — not a valid URL`);
      } else if (!/^mailto:[^@\s]+@[^@\s]+$/i.test(target)) {
        problems.push(`${where(link)} — a scheme other than http(s) or mailto`);
      }
      continue;
    }
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
    const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
    let destination = file;
    if (pathPart !== '') {
      destination = pathPart.startsWith('/') ? path.join(root, pathPart) : path.resolve(path.dirname(file), pathPart);
      if (!existsSync(destination)) {
        problems.push(`${where(link)} — no such file`);
        continue;
      }
    }
    if (anchor !== null) {
      if (!destination.endsWith('.md') || statSync(destination).isDirectory()) {
        problems.push(`${where(link)} — an anchor into something that is not a Markdown page`);
        continue;
      }
      const targetPage = destination === file ? page : read(destination);
      if (!targetPage.anchors.has(anchor)) problems.push(`${where(link)} — no heading with the anchor #${anchor}`);
    }
  }
  return problems;
}

function readFile(file: string): Page {
  return readPage(readFileSync(file, 'utf8'));
}
