import type { AttachmentReader } from '../attachment-reader/reader-pool.js';
import type { ReadingStatus } from '../attachment-reader/reading.js';

/** Why a file gave no text, in words for the import's preview. */
const PROBLEMS: Record<Exclude<ReadingStatus, 'read'>, string> = {
  unreadable: 'No text could be read: a scanned PDF without a text layer, or not a PDF.',
  too_large: 'Too large to read.',
  timed_out: 'Took too long to read.',
  queue_full: 'The server is busy reading other files: try again in a moment.',
};

/**
 * Reads PDFs for the knowledge import with the answer API's attachment readers (worker threads,
 * bounded decoding, a deadline): each file's text, or why there is none. One file at a time, so
 * each gets the readers' whole deadline.
 */
export async function readArticleFiles({ reader, files }: { reader: AttachmentReader; files: { filename: string; contentBase64: string }[] }) {
  const texts: { filename: string; text: string | null; problem: string | null }[] = [];
  for (const file of files) {
    const [reading] = await reader.read([{ kind: 'pdf', contentBase64: file.contentBase64 }]);
    const text = reading?.status === 'read' ? (reading.text ?? '').trim() : '';
    texts.push(text ? { filename: file.filename, text, problem: null } : { filename: file.filename, text: null, problem: PROBLEMS[reading?.status === 'read' || !reading ? 'unreadable' : reading.status] });
  }
  return texts;
}
