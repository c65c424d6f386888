import { Worker } from 'node:worker_threads';
import type { OcrLanguage } from './ocr.js';
import type { AttachmentKind, AttachmentReading, ReaderData, ReaderMessage, ReadingStatus, ReadMessage } from './reading.js';

/**
 * A reader's V8 heap (pdf.js's objects, text items); past it the worker dies alone
 * (ERR_WORKER_OUT_OF_MEMORY) and its attachment is too_large.
 */
export const READER_HEAP_MB = 128;
/**
 * Bytes pdf.js may decode and allocate for one PDF; off-heap, so counted apart (decode-budget.ts).
 * Reading text takes under 1 MiB for the manuals we tried (pdf.js skips images' pixels, and
 * reading stops at MAX_TEXT); a bomb stops here after about 0.1 s of inflating.
 */
export const MAX_DECODED_BYTES = 16 * 1024 * 1024;
/**
 * Past this a reader is replaced once its attachment is done: what it holds that it cannot give
 * back (Tesseract's WebAssembly memory, which grows with the largest image decoded and never
 * shrinks, and its V8 heap). A reader with English OCR holds about 50 MiB of it after a 1280×720 screenshot.
 */
export const READER_MEMORY_MARK_MB = 128;
/** A pool that cannot start a reader in this long gives up on the call (unreadable), not hangs. */
const START_TIMEOUT_MS = 15_000;

export interface AttachmentReaderOptions {
  /** Reader workers at most. */
  size: number;
  /** Attachments waiting for a reader at most; past it they are skipped (queue_full). */
  maxQueue: number;
  /** How long one call's attachments may take, counted once a reader is up. */
  timeoutMs: number;
  /** app.log, or anything with its (details, message) calls. */
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
  /** Default MAX_DECODED_BYTES. */
  maxDecodedBytes?: number;
  /** Default READER_HEAP_MB. */
  heapMb?: number;
  /** Default READER_MEMORY_MARK_MB. */
  memoryMarkMb?: number;
  /** Languages images are OCR'd in (ocrLanguage()); default none: images are checked by header only. */
  ocrLanguages?: OcrLanguage[];
  /** Default START_TIMEOUT_MS. */
  startTimeoutMs?: number;
}

/** One attachment handed to the pool. */
export interface AttachmentToRead {
  kind: AttachmentKind;
  contentBase64: string;
}

/** One call's attachments and their shared deadline. */
interface Call {
  jobs: Job[];
  deadlineAt: number;
  timer: NodeJS.Timeout | null;
}

interface Job extends AttachmentToRead {
  id: number;
  done: boolean;
  slot: Slot | null;
  call: Call;
  finish(reading: AttachmentReading): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | null;
}

const ENTRY = new URL('./worker-entry.mjs', import.meta.url);

/**
 * Reads attachments in worker threads, so that what a file makes pdf.js do (decode 200 MB, loop)
 * costs a worker, never the event loop that answers everyone else. Workers start on first use and
 * read one attachment at a time. One still busy at a call's deadline, or past its heap limit, is
 * terminated rather than waited for, and another takes its place when there is work; one past
 * the decode budget stops by itself (decode-budget.ts).
 */
export class AttachmentReader {
  readonly #options: AttachmentReaderOptions;
  readonly #slots = new Set<Slot>();
  readonly #queue: Job[] = [];
  /** Calls waiting for the first reader to be ready. */
  #waiting: ((up: boolean) => void)[] = [];
  /** Terminations under way, awaited by close(). */
  readonly #exits = new Set<Promise<unknown>>();
  #nextId = 1;
  #closed = false;

  constructor(options: AttachmentReaderOptions) {
    this.#options = options;
  }

  /**
   * Reads the attachments, in order, within one deadline; never throws. Whatever is not read in
   * time, or finds the queue full, or the pool closed, comes back with that status.
   */
  async read(attachments: AttachmentToRead[]): Promise<AttachmentReading[]> {
    if (attachments.length === 0) return [];
    // Starting a reader (tsx, pdf.js) takes a few hundred ms, more on a busy machine: a call that
    // starts the pool does not spend its deadline on it.
    if (this.#closed || !(await this.#up())) return attachments.map(({ kind }) => ({ kind, status: 'unreadable' }));
    const call: Call = { jobs: [], deadlineAt: Date.now() + this.#options.timeoutMs, timer: null };
    const readings = Promise.all(
      attachments.map((a) => new Promise<AttachmentReading>((finish) => call.jobs.push({ ...a, id: this.#nextId++, done: false, slot: null, finish, call }))),
    );
    this.#queue.push(...call.jobs);
    this.#arm(call);
    this.#dispatch();
    // The newest arrivals are the ones skipped.
    while (this.#queue.length > this.#options.maxQueue) this.#settle(this.#queue.pop()!, 'queue_full');
    try {
      return await readings;
    } finally {
      if (call.timer) clearTimeout(call.timer);
    }
  }

  /** (Re)sets the call's timer to its deadline, or to `at` while a reader loads code for it. */
  #arm(call: Call, at = call.deadlineAt) {
    if (call.timer) clearTimeout(call.timer);
    call.timer = setTimeout(() => this.#expire(call.jobs), Math.max(0, at - Date.now()));
  }

  /** Terminates every reader; later calls read nothing. */
  async close() {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) this.#settle(job, 'unreadable');
    for (const slot of [...this.#slots]) this.#retire(slot, 'unreadable');
    this.#notify(false);
    await Promise.all(this.#exits);
  }

  /** Readers alive (starting or started), for tests. */
  get size() {
    return this.#slots.size;
  }

  /** Hands queued attachments to idle readers; `refill` replaces readers lost while work waits. */
  #dispatch(refill = true) {
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) break;
      if (!slot.ready || slot.job) continue;
      const job = this.#queue.shift()!;
      slot.job = job;
      job.slot = slot;
      slot.worker.postMessage({ id: job.id, kind: job.kind, contentBase64: job.contentBase64, deadlineAt: job.call.deadlineAt } satisfies ReadMessage);
    }
    if (refill && this.#queue.length > 0) this.#fill();
  }

  /** The call's deadline: its queued attachments are dropped first, so no replacement starts for them. */
  #expire(jobs: Job[]) {
    for (const job of jobs) {
      if (job.done || job.slot) continue;
      this.#queue.splice(this.#queue.indexOf(job), 1);
      this.#settle(job, 'timed_out');
    }
    for (const job of jobs) {
      if (job.done || !job.slot) continue;
      this.#options.log.warn({ kind: job.kind, timeoutMs: this.#options.timeoutMs }, 'attachment reader: deadline passed, reader terminated');
      this.#retire(job.slot, 'timed_out');
    }
  }

  /** `read`: what the reader sent (its text, title, or why it was not read). */
  #settle(job: Job, status: ReadingStatus, read: Pick<AttachmentReading, 'text' | 'title' | 'detail'> = {}) {
    if (job.done) return;
    job.done = true;
    if (job.slot?.job === job) job.slot.job = null;
    job.slot = null;
    const { text, title, detail } = read;
    job.finish({ kind: job.kind, status, ...(text === undefined ? {} : { text }), ...(title === undefined ? {} : { title }), ...(detail === undefined ? {} : { detail }) });
  }

  /** Takes a reader out of the pool and terminates it; its attachment, if any, gets `status`. */
  #retire(slot: Slot, status: ReadingStatus) {
    if (!this.#slots.delete(slot)) return;
    if (slot.job) this.#settle(slot.job, status);
    const exit = slot.worker.terminate().catch(() => {});
    this.#exits.add(exit);
    void exit.finally(() => this.#exits.delete(exit));
    this.#dispatch();
  }

  /** Resolves true once a reader is ready, false when none could start. */
  #up(): Promise<boolean> {
    if ([...this.#slots].some((s) => s.ready)) return Promise.resolve(true);
    this.#fill();
    const timeoutMs = this.#options.startTimeoutMs ?? START_TIMEOUT_MS;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting = this.#waiting.filter((w) => w !== done);
        this.#options.log.error({ timeoutMs }, 'attachment reader: no reader started in time');
        resolve(false);
      }, timeoutMs);
      const done = (up: boolean) => {
        clearTimeout(timer);
        resolve(up);
      };
      this.#waiting.push(done);
    });
  }

  #notify(up: boolean) {
    for (const resolve of this.#waiting.splice(0)) resolve(up);
  }

  #fill() {
    while (!this.#closed && this.#slots.size < this.#options.size) this.#spawn();
  }

  #spawn() {
    const worker = new Worker(ENTRY, {
      // Not the parent's flags (an inspector port, `--import tsx` twice): the entry registers tsx itself.
      execArgv: [],
      workerData: { maxDecodedBytes: this.#options.maxDecodedBytes ?? MAX_DECODED_BYTES, ocrLanguages: this.#options.ocrLanguages ?? [] } satisfies ReaderData,
      resourceLimits: { maxOldGenerationSizeMb: this.#options.heapMb ?? READER_HEAP_MB },
    });
    // The pool never keeps a process alive; the app's onClose terminates the readers anyway.
    worker.unref();
    const slot: Slot = { worker, ready: false, job: null };
    this.#slots.add(slot);
    worker.on('message', (message: ReaderMessage) => {
      if (!this.#slots.has(slot)) return;
      if (message.type === 'ready') {
        slot.ready = true;
        this.#notify(true);
      } else if (message.type === 'loading' || message.type === 'loaded') {
        // Loading code is the reader's start, not the attachment's work: the deadline waits for it
        // (as long as a reader's start may take), then moves by what it took.
        const job = slot.job?.id === message.id ? slot.job : null;
        if (job && !job.done) {
          if (message.type === 'loading') this.#arm(job.call, job.call.deadlineAt + (this.#options.startTimeoutMs ?? START_TIMEOUT_MS));
          else {
            job.call.deadlineAt += message.ms;
            this.#arm(job.call);
          }
        }
        return;
      } else if (slot.job?.id === message.id) {
        const { status } = message.reading;
        // A reader stopped by the decode budget has unwound pdf.js and freed what it decoded: it
        // stays. Replacing it costs a start (tsx, pdf.js: 0.3-1 s of CPU) out of other calls' deadlines.
        if (status === 'too_large') this.#options.log.warn({ kind: slot.job.kind }, 'attachment reader: attachment past a cap');
        this.#settle(slot.job, status, message.reading);
        // Memory a reader cannot give back stays until the reader goes: past the mark, it goes now
        // (its attachment is answered), and another starts when there is work.
        const markBytes = (this.#options.memoryMarkMb ?? READER_MEMORY_MARK_MB) * 1024 * 1024;
        if (message.memoryBytes > markBytes) {
          this.#options.log.warn({ memoryMb: Math.round(message.memoryBytes / 1024 / 1024) }, 'attachment reader: past its memory mark, replaced');
          this.#retire(slot, 'unreadable');
          return;
        }
      }
      this.#dispatch();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (!this.#slots.has(slot)) return;
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      if (outOfMemory) this.#options.log.warn({ kind: slot.job?.kind }, 'attachment reader: heap limit reached, reader replaced');
      else this.#options.log.error({ err: error }, 'attachment reader failed');
      this.#gone(slot, outOfMemory ? 'too_large' : 'unreadable');
    });
    worker.on('exit', () => this.#gone(slot, 'unreadable'));
  }

  /** A reader that died on its own: its attachment gets `status`, and the calls waiting learn of it. */
  #gone(slot: Slot, status: ReadingStatus) {
    if (!this.#slots.delete(slot)) return;
    if (slot.job) this.#settle(slot.job, status);
    if (this.#slots.size === 0) this.#notify(false);
    // One that never started is not replaced here: a reader that cannot start would loop.
    this.#dispatch(slot.ready);
  }
}
