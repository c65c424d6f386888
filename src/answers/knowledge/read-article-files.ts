import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import type { AttachmentReader } from '../attachment-reader/reader-pool.js';
import type { ReadingStatus } from '../attachment-reader/reading.js';

/** Why a file gave no text, in words for the import's preview. */
const PROBLEMS: Record<Exclude<ReadingStatus, 'read'>, string> = {
  unreadable: 'No text could be read: a scanned PDF without a text layer, or not a PDF.',
  too_large: 'Too large to read.',
  timed_out: 'Took too long to read.',
  queue_full: 'The server is busy reading other files: try again in a moment.',
};

/** Characters of an article body an HTML page gives at most (as the import's MAX_BODY). */
const MAX_HTML_BODY = 200_000;

export interface ArticleFileText {
  filename: string;
  /** The document's own title: a PDF's first heading (or metadata Title), an HTML page's first heading or <title>. */
  title: string | null;
  text: string | null;
  problem: string | null;
}

/** An HTML page by its name: the others are read as PDFs. */
const isHtml = (filename: string) => /\.(html?|xhtml)$/i.test(filename);

/**
 * Reads files for the knowledge import: PDFs with the answer API's attachment readers (worker
 * threads, bounded decoding, a deadline), HTML pages here (their main content, as Markdown). Each
 * file's title and text, or why there is none. One PDF at a time, so each gets the readers' whole
 * deadline.
 */
export async function readArticleFiles({ reader, files }: { reader: AttachmentReader; files: { filename: string; contentBase64: string }[] }) {
  const texts: ArticleFileText[] = [];
  for (const file of files) {
    if (isHtml(file.filename)) {
      const page = articleFromHtml(Buffer.from(file.contentBase64, 'base64').toString('utf8'));
      texts.push(page.body ? { filename: file.filename, title: page.title, text: page.body, problem: null } : { filename: file.filename, title: page.title, text: null, problem: 'The page has no text.' });
      continue;
    }
    const [reading] = await reader.read([{ kind: 'pdf', contentBase64: file.contentBase64 }]);
    const text = reading?.status === 'read' ? (reading.text ?? '').trim() : '';
    const title = reading?.title?.trim() || null;
    texts.push(
      text
        ? { filename: file.filename, title, text: withoutLeadingTitle(text, title), problem: null }
        : { filename: file.filename, title: null, text: null, problem: PROBLEMS[reading?.status === 'read' || !reading ? 'unreadable' : reading.status] },
    );
  }
  return texts;
}

/** The body without its heading: a PDF's text has it near its start (after a running header, perhaps). */
function withoutLeadingTitle(text: string, title: string | null) {
  const at = title ? text.indexOf(title) : -1;
  if (!title || at < 0 || at > 300) return text;
  return `${text.slice(0, at)} ${text.slice(at + title.length)}`.replace(/\s+/g, ' ').trim() || text;
}

const collapse = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * An HTML page → {title, body}: Readability (Firefox's reader view) keeps the main content and
 * drops navigation, headers, footers and sidebars ("Acme Help Center · Home · Billing"); the body
 * is Markdown with its headings, lists and links. The title is the page's first <h1>, else its
 * <title>. Nothing runs or loads: linkedom parses, it does not execute.
 */
export function articleFromHtml(html: string): { title: string | null; body: string } {
  const { document } = parseHTML(html);
  const h1 = collapse(document.querySelector('h1')?.textContent) || null;
  const pageTitle = collapse(document.querySelector('title')?.textContent) || null;
  const title = (h1 ?? pageTitle)?.slice(0, 300) ?? null;
  let content: string | null = null;
  try {
    // charThreshold 0: a short help article is still an article.
    content = new Readability(document as never, { charThreshold: 0 }).parse()?.content ?? null;
  } catch {
    content = null;
  }
  const root = content ? parseHTML(`<!doctype html><html><body>${content}</body></html>`).document.body : parseHTML(html).document.body;
  let body = toMarkdown(root as unknown as MarkdownNode).trim();
  // The title is not said again at the top of the body.
  if (title) body = body.replace(new RegExp(`^#{1,6} ${escapeRegExp(title)}\\n+`), '');
  return { title, body: tidy(body).slice(0, MAX_HTML_BODY) };
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Blank lines at most one in a row, no trailing spaces. */
function tidy(text: string) {
  return text
    .replace(/[ \t\u00a0]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The few DOM members the Markdown writer reads (linkedom's nodes have them). */
interface MarkdownNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<MarkdownNode>;
  getAttribute?(name: string): string | null;
}

const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'HEAD', 'NAV', 'FORM', 'BUTTON']);

/** Block content → Markdown: headings, paragraphs, lists (nested), links, emphasis, code, quotes. */
function toMarkdown(node: MarkdownNode, depth = 0): string {
  let out = '';
  for (const child of Array.from(node.childNodes)) out += block(child, depth);
  return out;
}

function block(node: MarkdownNode, depth: number): string {
  if (node.nodeType === 3) return inlineOf(node);
  if (node.nodeType !== 1) return '';
  const tag = node.nodeName.toUpperCase();
  if (SKIPPED.has(tag)) return '';
  const heading = /^H([1-6])$/.exec(tag);
  if (heading) return `\n\n${'#'.repeat(Number(heading[1]))} ${collapse(inline(node))}\n\n`;
  switch (tag) {
    case 'P':
      return `\n\n${inline(node).trim()}\n\n`;
    case 'BR':
      return '\n';
    case 'HR':
      return '\n\n---\n\n';
    case 'UL':
    case 'OL':
      return `\n\n${list(node, depth, tag === 'OL')}\n\n`;
    case 'PRE':
      return `\n\n\`\`\`\n${(node.textContent ?? '').replace(/\n$/, '')}\n\`\`\`\n\n`;
    case 'BLOCKQUOTE':
      return `\n\n${tidy(toMarkdown(node, depth))
        .split('\n')
        .map((line) => `> ${line}`.trimEnd())
        .join('\n')}\n\n`;
    case 'TR':
      return `\n| ${Array.from(node.childNodes)
        .filter((c) => c.nodeType === 1)
        .map((c) => collapse(inline(c)))
        .join(' | ')} |`;
    case 'TABLE':
    case 'THEAD':
    case 'TBODY':
    case 'TFOOT':
      return `\n${toMarkdown(node, depth)}\n`;
    case 'DIV':
    case 'SECTION':
    case 'ARTICLE':
    case 'MAIN':
    case 'HEADER':
    case 'FOOTER':
    case 'ASIDE':
    case 'FIGURE':
    case 'DL':
    case 'DD':
    case 'DT':
    case 'BODY':
      return `\n${toMarkdown(node, depth)}\n`;
    default:
      return inlineOf(node);
  }
}

/** A list's items, "- " or "1. ", nested lists indented under their item. */
function list(node: MarkdownNode, depth: number, ordered: boolean): string {
  const indent = '  '.repeat(depth);
  const items = Array.from(node.childNodes).filter((c) => c.nodeType === 1 && c.nodeName.toUpperCase() === 'LI');
  return items
    .map((item, n) => {
      const marker = ordered ? `${n + 1}.` : '-';
      let own = '';
      let nested = '';
      for (const child of Array.from(item.childNodes)) {
        const tag = child.nodeName.toUpperCase();
        if (child.nodeType === 1 && (tag === 'UL' || tag === 'OL')) nested += `\n${list(child, depth + 1, tag === 'OL')}`;
        else own += child.nodeType === 1 && tag === 'P' ? ` ${inline(child)}` : block(child, depth + 1);
      }
      return `${indent}${marker} ${collapse(own)}${nested}`;
    })
    .join('\n');
}

/** A node inside a block as inline Markdown. */
function inlineOf(node: MarkdownNode): string {
  if (node.nodeType === 3) return (node.textContent ?? '').replace(/\s+/g, ' ');
  if (node.nodeType !== 1) return '';
  const tag = node.nodeName.toUpperCase();
  if (SKIPPED.has(tag)) return '';
  const inner = inline(node);
  switch (tag) {
    case 'A': {
      const href = node.getAttribute?.('href')?.trim() ?? '';
      const words = collapse(inner);
      // Only links a reader can follow; a script link or an anchor keeps its words.
      return words && /^(https?:|mailto:|\/)/i.test(href) ? `[${words}](${href.replace(/\s/g, '%20').replace(/\)/g, '%29')})` : inner;
    }
    case 'STRONG':
    case 'B':
      return collapse(inner) ? `**${collapse(inner)}**` : inner;
    case 'EM':
    case 'I':
      return collapse(inner) ? `*${collapse(inner)}*` : inner;
    case 'CODE':
      return collapse(inner) ? `\`${collapse(inner)}\`` : inner;
    case 'IMG':
      return node.getAttribute?.('alt') ?? '';
    case 'BR':
      return '\n';
    case 'TD':
    case 'TH':
      return inner;
    default:
      return BLOCK_TAGS.has(tag) ? block(node, 0) : inner;
  }
}

const BLOCK_TAGS = new Set(['P', 'UL', 'OL', 'PRE', 'BLOCKQUOTE', 'TABLE', 'DIV', 'SECTION', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HR']);

/** A node's children as inline Markdown. */
function inline(node: MarkdownNode): string {
  return Array.from(node.childNodes)
    .map((child) => inlineOf(child))
    .join('');
}
