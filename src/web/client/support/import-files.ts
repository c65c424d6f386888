/**
 * Files dropped into the knowledge import, turned into articles in the browser: Markdown and plain
 * text here; PDFs and HTML pages are read by the server (its attachment readers; Readability for a
 * page's main content). Each file is one article: its title from the first heading, else the file
 * name.
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

/** Plain text: the file name is the title; the text is the body. */
export function fromText(source: string): { title: string | null; body: string } {
  return { title: null, body: tidy(source.replace(/^\uFEFF/, '')) };
}
