import { articleFromHtml } from './html-article.js';
import { htmlDepth, MAX_HTML_DEPTH } from './html-depth.js';
import type { AttachmentReading } from './reading.js';

/**
 * Bytes an HTML page may have. A help article saved from a browser is 20 to 300 KB; parsing takes
 * about 100 MiB of heap a MB of dense markup (a 14 MB page took 27 s and 830 MiB before #44), and a
 * reader has READER_HEAP_MB (128): a denser page under this cap still stops at the reader's heap
 * limit ("too large"). Checked before the page is sent to a reader, and again in the reader.
 */
export const MAX_HTML_BYTES = 2 * 1024 * 1024;

/** Why a page over MAX_HTML_BYTES is not read, in words for the import's preview. */
export const TOO_LARGE_PAGE = `The page is over ${MAX_HTML_BYTES / 1024 / 1024} MB, more than a page for one article: save the article alone, or as Markdown.`;
/** Why a page nested past MAX_HTML_DEPTH is not read. */
export const TOO_DEEP_PAGE = `The page's elements are nested more than ${MAX_HTML_DEPTH} levels deep (help pages nest 20 to 40): it is not read.`;

/**
 * Reads one HTML page for the knowledge import, in a reader thread: its size and how deep its
 * elements nest are checked first, by a linear scan of the text (htmlDepth), and only then is it
 * parsed and written as Markdown. A page with no text is read, without text.
 */
export function readHtml(bytes: Buffer): AttachmentReading {
  if (bytes.length > MAX_HTML_BYTES) return { kind: 'html', status: 'too_large', detail: TOO_LARGE_PAGE };
  const html = bytes.toString('utf8');
  if (htmlDepth(html) > MAX_HTML_DEPTH) return { kind: 'html', status: 'too_large', detail: TOO_DEEP_PAGE };
  try {
    const { title, body } = articleFromHtml(html);
    return { kind: 'html', status: 'read', ...(body ? { text: body } : {}), ...(title ? { title } : {}) };
  } catch {
    // Nothing a page can hold should get here (the checks above bound the parser's recursion); a
    // page that does is unreadable rather than a failed reader.
    return { kind: 'html', status: 'unreadable' };
  }
}
