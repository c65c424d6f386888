import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { EncodeRequest, EncodeResponse } from './encoder-worker.js';
import { unit, type VectorSource, VectorSourceError } from './vector-source.js';

const ENTRY = new URL('./encoder-worker-entry.mjs', import.meta.url);

/** Queries waiting are embedded together, up to this many texts per thread (a batch of short texts costs little more than one). */
const QUERY_BATCH = 16;
/** Knowledge passages are embedded this many at a time (~0.15 s), so a query never waits long behind them. */
const BACKGROUND_SLICE = 2;

/** An encoder thread beyond the first stops after this long without work, and gives its memory back. */
const IDLE_MS = 30_000;

/**
 * Encoder threads when EMBEDDINGS_THREADS is unset: half the cores, at least two, at most four.
 * Two even on a small machine: with one, a message waits behind the knowledge passages being
 * embedded (an import's answers took 150 ms instead of 35 on two cores, bench/RESULTS.md). Each
 * thread holds its own copy of the model (~200 MB); the second starts only when a text waits while
 * the first is busy, and stops again after IDLE_MS without work.
 */
export function defaultEncoderThreads(cores = availableParallelism()): number {
  return Math.min(4, Math.max(2, Math.floor(cores / 2)));
}

interface Job {
  texts: string[];
  /** Vectors of the texts embedded so far (a background job goes in slices). */
  done: Float32Array[];
  priority: 'query' | 'background';
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
}

/** One encoder thread and the batch it works on: whole query jobs, or one slice of one background job. */
interface Thread {
  worker: Worker;
  /** The model is loaded: work is sent to it only then, so a text never waits for a thread to start while another is free. */
  ready: boolean;
  busy: { jobs: Job[]; id: number; slice: boolean } | null;
  /** Stops a thread beyond the first that stayed idle. */
  idleTimer?: NodeJS.Timeout;
}

/**
 * Universal Sentence Encoder Lite (512 dimensions, English) in worker threads (`threads`, started
 * as work arrives): each about 0.2 s to load and ~200 MB of memory; ~30 ms for a message and ~60 ms
 * a passage on one core, ~10 ms a text in a batch of eight. Queries waiting go first, shared out
 * among the idle threads in batches; knowledge passages go one slice at a time in between, so a
 * query waits at most for the slices under way.
 */
export class BuiltinVectorSource implements VectorSource {
  readonly id = 'use-lite-512';
  readonly #threads: Thread[] = [];
  readonly #maxThreads: number;
  readonly #idleMs: number;
  readonly #queries: Job[] = [];
  readonly #background: Job[] = [];
  #nextId = 1;
  #closed = false;

  constructor({ threads = defaultEncoderThreads(), idleMs = IDLE_MS }: { threads?: number; idleMs?: number } = {}) {
    this.#maxThreads = Math.max(1, threads);
    this.#idleMs = idleMs;
  }

  /** Encoder threads started (tests, metrics). */
  get threads(): number {
    return this.#threads.length;
  }

  embed(texts: string[], priority: 'query' | 'background'): Promise<Float32Array[]> {
    if (this.#closed) return Promise.reject(new VectorSourceError('the sentence encoder is closed'));
    if (!texts.length) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      (priority === 'query' ? this.#queries : this.#background).push({ texts, done: [], priority, resolve, reject });
      this.#pump();
    });
  }

  #start(): Thread {
    const thread: Thread = { worker: new Worker(ENTRY), ready: false, busy: null };
    const { worker } = thread;
    worker.unref();
    worker.on('message', (response: EncodeResponse) => {
      if ('ready' in response) {
        thread.ready = true;
        this.#pump();
        return this.#settle(thread);
      }
      const busy = thread.busy;
      if (!busy || busy.id !== response.id) return;
      thread.busy = null;
      if ('error' in response) {
        for (const job of busy.jobs) job.reject(new VectorSourceError(response.error));
      } else {
        let at = 0;
        for (const job of busy.jobs) {
          const count = busy.slice ? response.vectors.length : job.texts.length;
          job.done.push(...response.vectors.slice(at, at + count).map(unit));
          at += count;
          if (job.done.length === job.texts.length) job.resolve(job.done);
          else this.#background.unshift(job);
        }
      }
      this.#pump();
      this.#settle(thread);
    });
    const fail = (error: Error) => {
      // A dead encoder fails what it held; the next job starts another.
      clearTimeout(thread.idleTimer);
      const at = this.#threads.indexOf(thread);
      if (at >= 0) this.#threads.splice(at, 1);
      const busy = thread.busy;
      thread.busy = null;
      for (const job of busy?.jobs ?? []) job.reject(new VectorSourceError(`the sentence encoder stopped: ${error.message}`));
      if (!this.#closed) this.#pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    this.#threads.push(thread);
    return thread;
  }

  /** A thread left without work: it no longer keeps the process alive, and one beyond the first stops after idleMs. */
  #settle(thread: Thread) {
    if (thread.busy) return;
    thread.worker.unref();
    if (this.#threads.length <= 1) return;
    clearTimeout(thread.idleTimer);
    thread.idleTimer = setTimeout(() => {
      if (thread.busy || this.#threads.length <= 1 || this.#closed) return;
      // Out of the list first, so no work is handed to it while it stops.
      this.#threads.splice(this.#threads.indexOf(thread), 1);
      void thread.worker.terminate();
    }, this.#idleMs).unref();
  }

  /** A loaded, idle thread; if there is none, one more starts (one at a time, up to the most) and takes work once loaded. */
  #idleThread(): Thread | null {
    const idle = this.#threads.find((t) => t.ready && !t.busy);
    if (idle) return idle;
    if (this.#threads.length < this.#maxThreads && this.#threads.every((t) => t.ready)) {
      const started = this.#start();
      // Loading keeps the process alive, as work does.
      started.worker.ref();
    }
    return null;
  }

  #pump() {
    if (this.#closed) return;
    for (;;) {
      if (!this.#queries.length && !this.#background.length) return;
      const thread = this.#idleThread();
      if (!thread) return;
      let jobs: Job[] = [];
      let texts: string[];
      let slice = false;
      if (this.#queries.length) {
        // Shared out among all the threads (a busy one is free again within a batch), so that eight
        // messages arriving together are two batches of four on two threads, not one of eight.
        const waiting = this.#queries.reduce((n, j) => n + j.texts.length, 0);
        const share = Math.min(QUERY_BATCH, Math.ceil(waiting / this.#maxThreads));
        let count = 0;
        while (this.#queries.length && (count === 0 || count + this.#queries[0]!.texts.length <= share)) {
          const job = this.#queries.shift()!;
          jobs.push(job);
          count += job.texts.length;
        }
        texts = jobs.flatMap((j) => j.texts);
      } else {
        const job = this.#background.shift()!;
        jobs = [job];
        slice = true;
        texts = job.texts.slice(job.done.length, job.done.length + BACKGROUND_SLICE);
      }
      const id = this.#nextId++;
      clearTimeout(thread.idleTimer);
      thread.busy = { jobs, id, slice };
      thread.worker.ref();
      thread.worker.postMessage({ id, texts } satisfies EncodeRequest);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const pending = [...this.#queries.splice(0), ...this.#background.splice(0)];
    for (const job of pending) job.reject(new VectorSourceError('the sentence encoder is closed'));
    const threads = this.#threads.splice(0);
    for (const t of threads) clearTimeout(t.idleTimer);
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}
