import { Worker } from 'node:worker_threads';
import type { EncodeRequest, EncodeResponse } from './encoder-worker.js';
import { unit, type VectorSource, VectorSourceError } from './vector-source.js';

const ENTRY = new URL('./encoder-worker-entry.mjs', import.meta.url);

/** Queries waiting are embedded together, up to this many texts (a batch of short texts costs little more than one). */
const QUERY_BATCH = 16;
/** Knowledge passages are embedded this many at a time (~0.15 s), so a query never waits long behind them. */
const BACKGROUND_SLICE = 2;

interface Job {
  texts: string[];
  /** Vectors of the texts embedded so far (a background job goes in slices). */
  done: Float32Array[];
  priority: 'query' | 'background';
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
}

/**
 * Universal Sentence Encoder Lite (512 dimensions, English) in one worker thread, started on first
 * use: about 0.2 s to load and ~200 MB of memory; ~30 ms for a message and ~60 ms a passage on one
 * core. Queries waiting go first, together in one batch; knowledge passages go one batch at a time
 * in between, so a query waits at most for the batch under way.
 */
export class BuiltinVectorSource implements VectorSource {
  readonly id = 'use-lite-512';
  #worker: Worker | null = null;
  /** The batch under way: whole query jobs, or one slice of one background job. */
  #busy: { jobs: Job[]; id: number; slice: boolean } | null = null;
  readonly #queries: Job[] = [];
  readonly #background: Job[] = [];
  #nextId = 1;
  #closed = false;

  embed(texts: string[], priority: 'query' | 'background'): Promise<Float32Array[]> {
    if (this.#closed) return Promise.reject(new VectorSourceError('the sentence encoder is closed'));
    if (!texts.length) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      (priority === 'query' ? this.#queries : this.#background).push({ texts, done: [], priority, resolve, reject });
      this.#pump();
    });
  }

  #start(): Worker {
    const worker = new Worker(ENTRY);
    worker.unref();
    worker.on('message', (response: EncodeResponse) => {
      const busy = this.#busy;
      if (!busy || busy.id !== response.id) return;
      this.#busy = null;
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
      if (!this.#busy) worker.unref();
    });
    const fail = (error: Error) => {
      // A dead encoder fails what it held; the next job starts another.
      if (this.#worker === worker) this.#worker = null;
      const busy = this.#busy;
      this.#busy = null;
      for (const job of busy?.jobs ?? []) job.reject(new VectorSourceError(`the sentence encoder stopped: ${error.message}`));
      if (!this.#closed) this.#pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    return worker;
  }

  #pump() {
    if (this.#busy || this.#closed) return;
    let jobs: Job[] = [];
    let texts: string[];
    let slice = false;
    if (this.#queries.length) {
      let count = 0;
      while (this.#queries.length && (count === 0 || count + this.#queries[0]!.texts.length <= QUERY_BATCH)) {
        const job = this.#queries.shift()!;
        jobs.push(job);
        count += job.texts.length;
      }
      texts = jobs.flatMap((j) => j.texts);
    } else if (this.#background.length) {
      const job = this.#background.shift()!;
      jobs = [job];
      slice = true;
      texts = job.texts.slice(job.done.length, job.done.length + BACKGROUND_SLICE);
    } else {
      return;
    }
    this.#worker ??= this.#start();
    const id = this.#nextId++;
    this.#busy = { jobs, id, slice };
    // Only work under way keeps the process alive.
    this.#worker.ref();
    this.#worker.postMessage({ id, texts } satisfies EncodeRequest);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const pending = [...this.#queries.splice(0), ...this.#background.splice(0)];
    for (const job of pending) job.reject(new VectorSourceError('the sentence encoder is closed'));
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await worker.terminate();
  }
}
