/**
 * Files dropped into the knowledge import, turned into articles in the browser: Markdown, HTML and
 * plain text here; PDFs are read by the server (its attachment readers). Each file is one article:
 * its title from the first heading (Markdown), <title> or first <h1> (HTML), else the file name;
 * its body as plain text.
 */

export const MAX_TITLE = 300;
export const MAX_BODY = 200_000;

export type FileKind = 'json' | 'markdown' | 'html' | 'text' | 'pdf';

export function kindOf(file: { name: string; type: string }): FileKind | null {
  const ext = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  if (ext === 'json' || file.type === 'application/json') return 'json';
  if (['md', 'markdown', 'mdown', 'mkd'].includes(ext) || file.type === 'text/markdown') return 'markdown';
  if (['html', 'htm', 'xhtml'].includes(ext) || file.type === 'text/html') return 'html';
  if (ext === 'pdf' || file.type === 'application/pdf') return 'pdf';
  if (['txt', 'text'].includes(ext) || file.type === 'text/plain') return 'text';
  return null;
}

/** "Getting started.md" → "Getting started": the title when the file names none. */
export function titleFromFileName(name: string) {
  const base = name.replace(/\.[a-z0-9]+$/i, '').replace(/[_]+/g, ' ').trim();
  return base || name;
}

/** "Getting started.md" → "getting-started": the same file imported again replaces its article. */
export function externalIdFromFileName(name: string) {
  const slug = name
    .replace(/\.[a-z0-9]+$/i, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 180);
  return slug || 'article';
}

/** Blank lines at most one in a row, no trailing spaces, no blank start or end. */
export function tidy(text: string) {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Markdown → {title, body}: the first heading is the title (and leaves the body); the body loses its markup. */
export function fromMarkdown(source: string): { title: string | null; body: string } {
  let text = source.replace(/\r\n?/g, '\n').replace(/^\uFEFF/, '');
  // Front matter: its title, when it has one, is the article's.
  let title: string | null = null;
  const front = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (front) {
    title = /^title:\s*["']?(.+?)["']?\s*$/m.exec(front[1]!)?.[1] ?? null;
    text = text.slice(front[0].length);
  }
  const lines = text.split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fenceMark = /^\s*(```|~~~)/.exec(line)?.[1];
    if (fenceMark) {
      fence = fence === fenceMark ? null : (fence ?? fenceMark);
      continue;
    }
    if (fence) {
      out.push(line);
      continue;
    }
    const atx = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    const setext = i + 1 < lines.length && line.trim() && /^\s{0,3}(=+|-+)\s*$/.test(lines[i + 1]!) && !/^\s*[-*+]\s/.test(line);
    if (atx || setext) {
      const heading = inline(atx ? atx[2]! : line.trim());
      if (setext) i++;
      if (title === null) {
        title = heading;
        continue;
      }
      out.push('', heading, '');
      continue;
    }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push('');
      continue;
    }
    out.push(
      inline(
        line
          .replace(/^\s{0,3}>\s?/, '')
          .replace(/^(\s*)[*+]\s+/, '$1- ')
          .replace(/^\s*\[([ xX])\]\s+/, ''),
      ),
    );
  }
  return { title: title?.trim() || null, body: tidy(out.join('\n')) };
}

/** Inline Markdown → text: links keep their words, images their alt text; emphasis and code marks go. */
function inline(text: string) {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<(https?:[^>]+)>/g, '$1')
    .replace(/<\/?[a-z][^>]*>/gi, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/~~(.+?)~~/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!])/g, '$1');
}

const BLOCKS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'DD', 'DIV', 'DL', 'DT', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6',
  'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'TABLE', 'TR', 'UL',
]);
/** Blocks followed by a blank line; other blocks end their line. */
const PARAGRAPHS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'P', 'PRE', 'TABLE', 'UL', 'OL', 'BLOCKQUOTE']);
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'HEAD']);

/** HTML → {title, body}: <title> (else the first <h1>) is the title; the body's text keeps its paragraphs. */
export function fromHtml(source: string): { title: string | null; body: string } {
  // DOMParser builds an inert document: no script runs, nothing loads. Styles are dropped first:
  // the page's Content-Security-Policy would refuse (and report) applying them, and the text has no use for them.
  const unstyled = source.replace(/<style\b[\s\S]*?<\/style\s*>/gi, '').replace(/\sstyle\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '');
  const doc = new DOMParser().parseFromString(unstyled, 'text/html');
  const h1 = doc.querySelector('h1');
  const title = doc.querySelector('title')?.textContent?.replace(/\s+/g, ' ').trim() || h1?.textContent?.replace(/\s+/g, ' ').trim() || null;
  // A first <h1> that says the title again is not part of the body.
  if (h1 && title && h1.textContent?.replace(/\s+/g, ' ').trim() === title) h1.remove();
  const parts: string[] = [];
  const walk = (node: Node, pre: boolean) => {
    if (node.nodeType === Node.TEXT_NODE) {
      parts.push(pre ? node.textContent ?? '' : (node.textContent ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const el = node as Element;
    if (SKIPPED.has(el.tagName)) return;
    const block = BLOCKS.has(el.tagName);
    if (block) parts.push('\n');
    if (el.tagName === 'LI') parts.push('- ');
    if (el.tagName === 'IMG' && el.getAttribute('alt')) parts.push(el.getAttribute('alt')!);
    if (el.tagName === 'TD' || el.tagName === 'TH') parts.push(' ');
    for (const child of el.childNodes) walk(child, pre || el.tagName === 'PRE');
    if (block) parts.push(PARAGRAPHS.has(el.tagName) ? '\n\n' : '\n');
  };
  walk(doc.body, false);
  const body = tidy(parts.join('').replace(/[ \t]*\n[ \t]*/g, '\n'));
  return { title, body };
}

/** Plain text: the file name is the title; the text is the body. */
export function fromText(source: string): { title: string | null; body: string } {
  return { title: null, body: tidy(source.replace(/^\uFEFF/, '')) };
}
