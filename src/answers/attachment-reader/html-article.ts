import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { collapse, type MarkdownNode, tidy, toMarkdown } from './html-markdown.js';

/** Characters of an article body an HTML page gives at most (as the import's MAX_BODY). */
export const MAX_HTML_BODY = 200_000;

/**
 * Elements past which Readability is not run and the whole <body> is written instead: its scoring
 * costs more than the page's size (it sums the text of each candidate's descendants), and a help
 * article has a few hundred to a few thousand elements.
 */
export const MAX_READABILITY_ELEMENTS = 20_000;

/**
 * An HTML page → {title, body}: Readability (Firefox's reader view) keeps the main content and
 * drops navigation, headers, footers and sidebars ("Acme Help Center · Home · Billing"); the body
 * is Markdown with its headings, lists and links. The title is the page's first <h1>, else its
 * <title>. Nothing runs or loads: linkedom parses, it does not execute. Meant for a reader thread,
 * after the page's size and nesting were checked (htmlDepth).
 */
export function articleFromHtml(html: string): { title: string | null; body: string } {
  const { document } = parseHTML(html);
  const h1 = collapse(document.querySelector('h1')?.textContent) || null;
  const pageTitle = collapse(document.querySelector('title')?.textContent) || null;
  const title = (h1 ?? pageTitle)?.slice(0, 300) ?? null;
  let content: string | null = null;
  try {
    // charThreshold 0: a short help article is still an article. Past maxElemsToParse it throws.
    content = new Readability(document as never, { charThreshold: 0, maxElemsToParse: MAX_READABILITY_ELEMENTS }).parse()?.content ?? null;
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
