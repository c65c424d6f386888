import { MAX_HTML_BYTES, TOO_LARGE_PAGE } from '../attachment-reader/html-limits.js';
import type { AttachmentReader } from '../attachment-reader/reader-pool.js';
import type { AttachmentReading, ReadingStatus } from '../attachment-reader/reading.js';
import { decodedSize } from '../read-attachments.js';

/** Why a file gave no text, in words for the import's preview. */
const PROBLEMS: Record<Exclude<ReadingStatus, 'read'>, string> = {
  unreadable: 'No text could be read: a scanned PDF without a text layer, or not a PDF.',
  too_large: 'Too large to read.',
  timed_out: 'Took too long to read (ATTACHMENT_READ_TIMEOUT_MS).',
  queue_full: 'The server is busy reading other files: try again in a moment.',
};

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
 * Reads files for the knowledge import with the answer API's attachment readers (worker threads,
 * bounded decoding and heap, a deadline): PDFs' text, and HTML pages' main content as Markdown. A
 * page over MAX_HTML_BYTES is refused here, before it is decoded; one nested too deeply, by the
 * reader before it parses it. Each file's title and text, or why there is none. One file at a
 * time, so each gets the readers' whole deadline.
 */
export async function readArticleFiles({ reader, files }: { reader: AttachmentReader; files: { filename: string; contentBase64: string }[] }) {
  const texts: ArticleFileText[] = [];
  for (const file of files) {
    const html = isHtml(file.filename);
    if (html && decodedSize(file.contentBase64) > MAX_HTML_BYTES) {
      texts.push({ filename: file.filename, title: null, text: null, problem: TOO_LARGE_PAGE });
      continue;
    }
    const [reading] = await reader.read([{ kind: html ? 'html' : 'pdf', contentBase64: file.contentBase64 }]);
    const text = reading?.status === 'read' ? (reading.text ?? '').trim() : '';
    const title = reading?.title?.trim() || null;
    if (text) texts.push({ filename: file.filename, title, text: html ? text : withoutLeadingTitle(text, title), problem: null });
    else texts.push({ filename: file.filename, title: html && reading?.status === 'read' ? title : null, text: null, problem: problemOf(reading, html) });
  }
  return texts;
}

function problemOf(reading: AttachmentReading | undefined, html: boolean): string {
  if (reading?.detail) return reading.detail;
  if (html && reading?.status === 'read') return 'The page has no text.';
  if (html && reading?.status === 'unreadable') return 'The page could not be read.';
  return PROBLEMS[reading?.status === 'read' || !reading ? 'unreadable' : reading.status];
}

/** The body without its heading: a PDF's text has it near its start (after a running header, perhaps). */
function withoutLeadingTitle(text: string, title: string | null) {
  const at = title ? text.indexOf(title) : -1;
  if (!title || at < 0 || at > 300) return text;
  return `${text.slice(0, at)} ${text.slice(at + title.length)}`.replace(/\s+/g, ' ').trim() || text;
}
