import { Worker } from 'node:worker_threads';
import type { EncodeRequest, EncodeResponse } from './encoder-worker.js';
import { unit, type VectorSource, VectorSourceError } from './vector-source.js';
import { cpuBudget } from '../../../platform/http/cpu-budget.js';

const ENTRY = new URL('./encoder-worker-entry.mjs', import.meta.url);

/** Queries waiting are embedded together, up to this many texts per thread (a batch of short texts costs little more than one). */
const QUERY_BATCH = 16;
/** Knowledge passages are embedded this many at a time (~0.15 s), so a query never waits long behind them. */
const BACKGROUND_SLICE = 2;

/** An encoder thread beyond the first stops after this long without work, and gives its memory back. */
const IDLE_MS = 30_000;

/**
 * Encoder threads when EMBEDDINGS_THREADS is unset: half the cores (a container's CPU quota counted:
 * platform/http/cpu-budget.ts), at least two, at most four.
 * Two even on a small machine: with one, a message waits behind the knowledge passages being
 * embedded (an import's answers took 150 ms instead of 35 on two cores, bench/RESULTS.md). Each
 * thread holds its own copy of the model (~200 MB); the second starts only when a text waits while
 * the first is busy, and stops again after IDLE_MS without work.
 */
export function defaultEncoderThreads(cores = cpuBudget()): number {
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
  /** Batches this thread has embedded (tests). */
  batches: number;
  /** Stops a thread that does not load in time; then, one beyond the first that stayed idle. */
  timer?: NodeJS.Timeout;
}

/** A thread that has not loaded its model by then is stopped (a hung start would block every later one). */
const LOAD_TIMEOUT_MS = 60_000;
/** After a thread died before loading, the next start waits this long, doubled each time up to MAX_RESTART_DELAY_MS. */
const RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 60_000;

/**
 * Universal Sentence Encoder Lite (512 dimensions, English) in worker threads (`threads`, started
 * as work arrives): each about 0.2 s to load and ~200 MB of memory; ~30 ms for a message and ~60 ms
 * a passage on one core, ~10 ms a text in a batch of eight. Queries waiting go first, shared out
 * among the idle threads in batches; knowledge passages go one slice at a time in between, so a
 * query waits at most for the slices under way. A thread that cannot start fails what waits (the
 * answers are ranked lexically) and the next start is delayed, doubling.
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
  /** No thread starts before this (Date.now()); set when one died before loading. */
  #startAfter = 0;
  #restartDelay = RESTART_DELAY_MS;
  #startError = '';

  readonly #entry: URL;

  /** `entry`: the worker's module (tests give one that fails). */
  constructor({ threads = defaultEncoderThreads(), idleMs = IDLE_MS, entry = ENTRY }: { threads?: number; idleMs?: number; entry?: URL } = {}) {
    this.#maxThreads = Math.max(1, threads);
    this.#idleMs = idleMs;
    this.#entry = entry;
  }

  /** Encoder threads started (tests, metrics). */
  get threads(): number {
    return this.#threads.length;
  }

  /** Batches each thread has embedded, in start order (tests). */
  get batches(): number[] {
    return this.#threads.map((t) => t.batches);
  }

  embed(texts: string[], priority: 'query' | 'background'): Promise<Float32Array[]> {
    if (this.#closed) return Promise.reject(new VectorSourceError('the sentence encoder is closed', 'encoder'));
    if (!texts.length) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      (priority === 'query' ? this.#queries : this.#background).push({ texts, done: [], priority, resolve, reject });
      this.#pump();
    });
  }

  #start(): Thread {
    const thread: Thread = { worker: new Worker(this.#entry), ready: false, busy: null, batches: 0 };
    const { worker } = thread;
    // Loading keeps the process alive, as work does.
    worker.ref();
    thread.timer = setTimeout(() => void worker.terminate(), LOAD_TIMEOUT_MS).unref();
    worker.on('message', (response: EncodeResponse) => {
      if ('ready' in response) {
        clearTimeout(thread.timer);
        thread.ready = true;
        this.#restartDelay = RESTART_DELAY_MS;
        this.#pump();
        return this.#settle(thread);
      }
      const busy = thread.busy;
      if (!busy || busy.id !== response.id) return;
      thread.busy = null;
      thread.batches++;
      if ('error' in response) {
        for (const job of busy.jobs) job.reject(new VectorSourceError(response.error, 'encoder'));
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
    let dead = false;
    const fail = (error: Error) => {
      // 'error' is followed by 'exit': one death.
      if (dead) return;
      dead = true;
      clearTimeout(thread.timer);
      const at = this.#threads.indexOf(thread);
      if (at >= 0) this.#threads.splice(at, 1);
      // A dead encoder fails what it held.
      const busy = thread.busy;
      thread.busy = null;
      for (const job of busy?.jobs ?? []) job.reject(new VectorSourceError(`the sentence encoder stopped: ${error.message}`, 'encoder'));
      if (this.#closed) return;
      if (!thread.ready) {
        // It could not start (a missing package, no memory, a load that hung): what waits for it
        // fails now (ranked lexically) instead of waiting on a thread restarted in a loop.
        this.#startError = error.message;
        this.#startAfter = Date.now() + this.#restartDelay;
        this.#restartDelay = Math.min(MAX_RESTART_DELAY_MS, this.#restartDelay * 2);
      }
      this.#pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    this.#threads.push(thread);
    return thread;
  }

  /**
   * A thread left without work no longer keeps the process alive; one beyond the first stops after
   * idleMs without work, but not while knowledge passages remain (the other thread holds them).
   */
  #settle(thread: Thread) {
    if (thread.busy) return;
    thread.worker.unref();
    if (this.#threads.length <= 1) return;
    clearTimeout(thread.timer);
    const retire = () => {
      if (thread.busy || this.#threads.length <= 1 || this.#closed) return;
      if (this.#background.length || this.#threads.some((t) => t.busy?.slice)) {
        thread.timer = setTimeout(retire, this.#idleMs).unref();
        return;
      }
      // Out of the list first, so no work is handed to it while it stops.
      this.#threads.splice(this.#threads.indexOf(thread), 1);
      void thread.worker.terminate();
    };
    thread.timer = setTimeout(retire, this.#idleMs).unref();
  }

  /** Starts one more thread when work waits, none is idle, none is loading and fewer than the most run. */
  #grow() {
    if (this.#threads.length >= this.#maxThreads || !this.#threads.every((t) => t.ready)) return;
    if (Date.now() < this.#startAfter) {
      // Starting failed a moment ago: with no thread at all, what waits fails at once.
      if (!this.#threads.length) this.#failWaiting(new VectorSourceError(`the sentence encoder could not start: ${this.#startError}`, 'encoder'));
      return;
    }
    this.#start();
  }

  #failWaiting(error: Error) {
    for (const job of [...this.#queries.splice(0), ...this.#background.splice(0)]) job.reject(error);
  }

  #pump() {
    if (this.#closed) return;
    while (this.#queries.length || this.#background.length) {
      const idle = this.#threads.filter((t) => t.ready && !t.busy);
      const thread = idle[0];
      if (!thread) return this.#grow();
      let jobs: Job[] = [];
      let texts: string[];
      let slice = false;
      if (this.#queries.length) {
        // Shared out among the threads idle now, so that eight messages arriving together are
        // two batches of four on two idle threads, and one of eight on one.
        const waiting = this.#queries.reduce((n, j) => n + j.texts.length, 0);
        const share = Math.min(QUERY_BATCH, Math.ceil(waiting / idle.length));
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
      clearTimeout(thread.timer);
      thread.busy = { jobs, id, slice };
      thread.worker.ref();
      thread.worker.postMessage({ id, texts } satisfies EncodeRequest);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#failWaiting(new VectorSourceError('the sentence encoder is closed', 'encoder'));
    const threads = this.#threads.splice(0);
    for (const t of threads) clearTimeout(t.timer);
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}
