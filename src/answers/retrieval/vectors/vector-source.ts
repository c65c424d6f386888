/**
 * Where the answer agent's vectors come from: the built-in sentence encoder (Universal Sentence
 * Encoder Lite, in a worker thread) or an OpenAI-compatible `/v1/embeddings` endpoint. Vectors are
 * unit length, so a dot product is their cosine.
 */
export interface VectorSource {
  /**
   * Names the model: vectors stored under another id are never compared with this source's
   * (changing EMBEDDINGS_MODEL recomputes the knowledge's vectors).
   */
  readonly id: string;
  /**
   * Embeds texts, in order. `query` work (a customer's message, on the answer's path) goes before
   * `background` work (the knowledge's passages). `signal`: the caller stopped waiting; a source
   * that can stop its work then (a request to an embeddings server) does.
   */
  embed(texts: string[], priority: 'query' | 'background', signal?: AbortSignal): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** The vector scaled to length 1 (a zero vector stays zero). */
export function unit(values: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]! * values[i]!;
  const norm = Math.sqrt(sum) || 1;
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i]! / norm;
  return out;
}

/** Dot product: the cosine of two unit vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * What kind of failure stopped a source, for a person reading the knowledge's status: the message (logged) may name
 * an internal address; the kind does not.
 */
export type VectorFailureKind = 'unreachable' | 'timeout' | 'http_error' | 'bad_reply' | 'encoder';

/** The source failed (endpoint down, worker died): the caller ranks lexically instead. */
export class VectorSourceError extends Error {
  override name = 'VectorSourceError';
  /** `httpStatus`: the embeddings server's answer, for kind http_error. */
  constructor(
    message: string,
    readonly kind: VectorFailureKind = 'bad_reply',
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}
