import { articleFromHtml } from './html-article.js';
import { htmlDepth, MAX_HTML_DEPTH } from './html-depth.js';
import { MAX_HTML_BYTES, TOO_DEEP_PAGE, TOO_LARGE_PAGE } from './html-limits.js';
import type { AttachmentReading } from './reading.js';

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
