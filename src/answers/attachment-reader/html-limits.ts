// What an HTML page may be, apart from the reader (html-article.ts loads linkedom and Readability,
// which the server's main thread, checking a file's size, should not).
import { MAX_HTML_DEPTH } from './html-depth.js';

/**
 * Bytes an HTML page may have. A help article saved from a browser is 20 to 300 KB; parsing takes
 * about 100 MiB of heap a MB of dense markup (a 14 MB page took 27 s and 830 MiB before this cap), and a
 * reader has READER_HEAP_MB (128): a denser page under this cap still stops at the reader's heap
 * limit ("too large"). Checked before the page is sent to a reader, and again in the reader.
 */
export const MAX_HTML_BYTES = 2 * 1024 * 1024;

/** Why a page over MAX_HTML_BYTES is not read, in words for the import's preview. */
export const TOO_LARGE_PAGE = `The page is over ${MAX_HTML_BYTES / 1024 / 1024} MB, more than a page for one article: save the article alone, or as Markdown.`;
/** Why a page nested past MAX_HTML_DEPTH is not read. */
export const TOO_DEEP_PAGE = `The page's elements are nested more than ${MAX_HTML_DEPTH} levels deep (help pages nest 20 to 40): it is not read.`;
