import { unit, type VectorSource, VectorSourceError } from './vector-source.js';

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
 * answer is ranked lexically; a failed knowledge batch is tried again on the next build).
 */
export class OpenAiVectorSource implements VectorSource {
  readonly id: string;
  readonly #url: string;

  constructor(private readonly options: OpenAiEmbeddingsOptions) {
    this.id = `openai:${options.model}`.slice(0, 100);
    this.#url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    const size = this.options.batch ?? 64;
    for (let i = 0; i < texts.length; i += size) out.push(...(await this.#request(texts.slice(i, i + size))));
    return out;
  }

  async #request(input: string[]): Promise<Float32Array[]> {
    let res: Response;
    try {
      res = await fetch(this.#url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
        body: JSON.stringify({ model: this.options.model, input }),
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const e = error as Error;
      throw new VectorSourceError(e.name === 'TimeoutError' ? `no answer within ${this.options.timeoutMs} ms` : `could not reach the embeddings server (${e.message})`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new VectorSourceError(`the embeddings server answered ${res.status}`);
    }
    const json = (await res.json().catch(() => null)) as { data?: { embedding?: unknown; index?: unknown }[] } | null;
    const data = json?.data;
    if (!Array.isArray(data) || data.length !== input.length) throw new VectorSourceError('the embeddings server returned no vectors or a wrong number of them');
    const vectors: Float32Array[] = new Array(input.length);
    data.forEach((item, i) => {
      const at = typeof item.index === 'number' ? item.index : i;
      const e = item.embedding;
      if (!Array.isArray(e) || !e.length || !e.every((x) => typeof x === 'number' && Number.isFinite(x)) || at < 0 || at >= input.length) {
        throw new VectorSourceError('the embeddings server returned a malformed vector');
      }
      vectors[at] = unit(e as number[]);
    });
    if (vectors.some((v) => !v) || new Set(vectors.map((v) => v.length)).size !== 1) throw new VectorSourceError('the embeddings server returned vectors of mixed sizes');
    return vectors;
  }

  async close(): Promise<void> {}
}
