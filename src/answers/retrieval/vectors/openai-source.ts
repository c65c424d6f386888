import { unit, type VectorSource, VectorSourceError } from './vector-source.js';

/**
 * Dimensions a vector may have: the largest common embedding models have 4,096 (OpenAI's
 * text-embedding-3-large 3,072, nomic-embed-text 768). A reply past it is refused.
 */
export const MAX_DIMENSIONS = 4096;
/**
 * Bytes of reply allowed for each text embedded, plus REPLY_OVERHEAD_BYTES: a vector of
 * MAX_DIMENSIONS numbers written at full precision ("-0.012345678901234567,", 24 characters)
 * is about 98 KB. Reading stops, and the request is aborted, past the cap: a server sending 100 MB
 * costs a few MB, not gigabytes.
 */
export const MAX_REPLY_BYTES_PER_TEXT = 128 * 1024;
export const REPLY_OVERHEAD_BYTES = 64 * 1024;

export interface OpenAiEmbeddingsOptions {
  /** The server's OpenAI-compatible base, e.g. `http://127.0.0.1:11434/v1`: `/embeddings` is appended. */
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  timeoutMs: number;
  /** Texts per request at most (servers cap a batch). */
  batch?: number;
}

/**
 * Any OpenAI-compatible `/v1/embeddings` endpoint: Ollama, Hugging Face's text-embeddings-inference,
 * vLLM, LocalAI or a hosted API. One POST per batch, no retries (a failed query vector means the
 * answer is ranked lexically; a failed knowledge batch is tried again on the next build). A reply
 * is read up to a cap, aborted at the caller's deadline, and its vectors must be one per text, of
 * one size, the size of the first reply this process accepted: anything else is refused, never
 * stored or compared.
 */
export class OpenAiVectorSource implements VectorSource {
  readonly id: string;
  readonly #url: string;
  /** The vectors' size, from the first reply accepted: a model's vectors all have one. */
  #dimensions: number | undefined;

  constructor(private readonly options: OpenAiEmbeddingsOptions) {
    this.id = `openai:${options.model}`.slice(0, 100);
    this.#url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  }

  /** `signal`: the caller's deadline (a message's vector is waited for 400 ms): the request stops with it. */
  async embed(texts: string[], _priority?: 'query' | 'background', signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    const size = this.options.batch ?? 64;
    for (let i = 0; i < texts.length; i += size) out.push(...(await this.#request(texts.slice(i, i + size), signal)));
    return out;
  }

  async #request(input: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const stop = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const why = (error: unknown) => {
      if (signal?.aborted) return new VectorSourceError('the caller stopped waiting', 'timeout');
      if (timeout.aborted) return new VectorSourceError(`no answer within ${this.options.timeoutMs} ms`, 'timeout');
      return new VectorSourceError(`could not reach the embeddings server (${(error as Error).message})`, 'unreachable');
    };
    let res: Response;
    try {
      res = await fetch(this.#url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
        body: JSON.stringify({ model: this.options.model, input }),
        redirect: 'error',
        signal: stop,
      });
    } catch (error) {
      throw why(error);
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new VectorSourceError(`the embeddings server answered ${res.status}`, 'http_error', res.status);
    }
    const cap = REPLY_OVERHEAD_BYTES + input.length * MAX_REPLY_BYTES_PER_TEXT;
    let text: string;
    try {
      text = await readCapped(res, cap);
    } catch (error) {
      throw error instanceof VectorSourceError ? error : why(error);
    }
    let json: { data?: { embedding?: unknown; index?: unknown }[] } | null;
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      json = null;
    }
    const data = json?.data;
    if (!Array.isArray(data) || data.length !== input.length) throw new VectorSourceError('the embeddings server returned no vectors or a wrong number of them');
    const vectors: Float32Array[] = new Array(input.length);
    data.forEach((item, i) => {
      const at = typeof item.index === 'number' ? item.index : i;
      const e = item.embedding;
      if (!Array.isArray(e) || !e.length || e.length > MAX_DIMENSIONS || !e.every((x) => typeof x === 'number' && Number.isFinite(x)) || at < 0 || at >= input.length) {
        throw new VectorSourceError('the embeddings server returned a malformed vector');
      }
      vectors[at] = unit(e as number[]);
    });
    if (vectors.some((v) => !v) || new Set(vectors.map((v) => v.length)).size !== 1) throw new VectorSourceError('the embeddings server returned vectors of mixed sizes');
    const dimensions = vectors[0]!.length;
    if (dimensions > MAX_DIMENSIONS) throw new VectorSourceError(`the embeddings server returned vectors of ${dimensions} dimensions; at most ${MAX_DIMENSIONS} are accepted`);
    if (this.#dimensions !== undefined && dimensions !== this.#dimensions) {
      throw new VectorSourceError(`the embeddings server returned vectors of ${dimensions} dimensions, where this model's have ${this.#dimensions}`);
    }
    this.#dimensions = dimensions;
    return vectors;
  }

  async close(): Promise<void> {}
}

/**
 * The reply's body as text, read until `cap` bytes: past it (or a Content-Length over it) the
 * download is cancelled and the reply refused.
 */
async function readCapped(res: Response, cap: number): Promise<string> {
  const refuse = () => new VectorSourceError(`the embeddings server's reply is over ${cap} bytes`);
  const declared = Number(res.headers.get('content-length'));
  if (declared > cap) {
    await res.body?.cancel().catch(() => {});
    throw refuse();
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > cap) {
      await reader.cancel().catch(() => {});
      throw refuse();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
