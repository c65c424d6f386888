import { Worker } from 'node:worker_threads';
import { AppError } from '../../platform/errors.js';
import type { FileCard } from './board-file.js';
import { type ReadFile, readBoardFile, tooLarge } from './read-board-file.js';

/** What the reader thread sends: the file without its cards, its cards by lists and chunks, then done; or its refusal, or a failure (a bug). */
export type ReaderMessage =
  | { type: 'file'; read: ReadFile }
  | { type: 'cards'; list: number; cards: FileCard[] }
  | { type: 'done' }
  | { type: 'refused'; status: number; code: string; message: string }
  | { type: 'failed'; error: string };

/** Cards the reader sends in one message: a message is taken in one turn of the event loop. */
export const CARDS_PER_MESSAGE = 2000;
/**
 * Files up to this size are read on the event loop (a 1 MB export: ~40 ms); larger ones in a
 * thread of their own, since a 17 MB export of 100,000 cards took 3.3 s of the loop to parse,
 * check and map, and starting a thread costs ~0.5 s of CPU (tsx, zod) that a small file need not pay.
 */
export const READ_ON_LOOP_BYTES = 1024 * 1024;
/** The reader thread's V8 heap: a 20 MB export parses into a few hundred MB of objects; past it, 413. */
const READER_HEAP_MB = 1536;
/** A reader still busy after this long is ended, and the file refused (a 20 MB export takes a few seconds on a quiet core). */
const READ_TIMEOUT_MS = 300_000;

const ENTRY = new URL('./read-worker-entry.mjs', import.meta.url);

/**
 * readBoardFile, off the event loop for files over READ_ON_LOOP_BYTES: JSON.parse, the shape's
 * check and the Trello mapping of a large file run in a worker thread, and the event loop only
 * takes the result, by messages of CARDS_PER_MESSAGE cards. Its answers are readBoardFile's: the
 * same 400s and 413s. A large `bytes` is handed to the thread: the caller must not read it after.
 */
export async function readBoardFileOffLoop(bytes: Buffer | string): Promise<ReadFile> {
  if (Buffer.byteLength(bytes) <= READ_ON_LOOP_BYTES) return readBoardFile(bytes);
  // The bytes are handed over, not copied: cloning 17 MB into the thread held the event loop
  // 0.6-1.6 s on a loaded machine. A buffer that shares its memory with others is copied first.
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  const own = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer ? data.buffer : new Uint8Array(data).buffer;
  return new Promise<ReadFile>((resolve, reject) => {
    const worker = new Worker(ENTRY, {
      // Not the parent's flags (an inspector port, `--import tsx` twice): the entry registers tsx itself.
      execArgv: [],
      workerData: own,
      transferList: [own],
      resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB },
    });
    let read: ReadFile | null = null;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(() => settle(() => reject(new AppError(413, 'payload_too_large', 'file: took too long to read; not a board export'))), READ_TIMEOUT_MS);
    worker.on('message', (message: ReaderMessage) => {
      if (message.type === 'file') read = message.read;
      else if (message.type === 'cards') read!.file.lists[message.list]!.cards.push(...message.cards);
      else if (message.type === 'done') settle(() => resolve(read!));
      else if (message.type === 'refused') settle(() => reject(new AppError(message.status, message.code, message.message)));
      else settle(() => reject(new Error(`reading the board file failed: ${message.error}`)));
    });
    worker.once('error', (error: Error & { code?: string }) => settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooLarge() : error)));
    worker.once('exit', () => settle(() => reject(new Error('the board-file reader ended without an answer'))));
  });
}
