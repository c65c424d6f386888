import v8 from 'node:v8';
import vm from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { getResolvedPDFJS } from 'unpdf';
import { installDecodeBudget } from './decode-budget.js';
import { startOcr } from './ocr.js';
import { readAttachment } from './read-attachment.js';
import type { ReaderData, ReaderMessage, ReadMessage } from './reading.js';

const port = parentPort!;
const { maxDecodedBytes, ocrLanguages } = workerData as ReaderData;
// Tesseract and its models (0.3-0.5 s, about 25 MiB a reader) start once, before the worker is
// ready, and serve every image it reads. Before the decode budget: unzipping the models would
// count against it, and the budget is for what a file makes pdf.js allocate.
const ocr = ocrLanguages.length ? await startOcr(ocrLanguages) : null;
const budget = installDecodeBudget(maxDecodedBytes);
const collectGarbage = garbageCollector();
// pdf.js (1.6 MB of code) loads before the worker says it is ready, so no call's deadline pays for it.
await getResolvedPDFJS();

let htmlLoaded = false;

port.on('message', async ({ id, kind, contentBase64, deadlineAt }: ReadMessage) => {
  if (kind === 'html' && !htmlLoaded) {
    // linkedom and Readability load on a reader's first page (see readAttachment): seconds of
    // compiling on a busy machine that the page's deadline, meant for the parse, must not pay.
    port.postMessage({ type: 'loading', id } satisfies ReaderMessage);
    const started = Date.now();
    await import('./read-html.js');
    htmlLoaded = true;
    port.postMessage({ type: 'loaded', id, ms: Date.now() - started } satisfies ReaderMessage);
  }
  const reading = await readAttachment({ kind, contentBase64, budget, ocr, deadlineAt });
  const memoryBytes = (ocr?.memoryBytes() ?? 0) + v8.getHeapStatistics().total_heap_size;
  port.postMessage({ type: 'done', id, reading, memoryBytes } satisfies ReaderMessage);
  // What a PDF decoded up to the budget is garbage now, but V8 collects on its own only once
  // tens of MB more are held outside its heap; freed at once, the next attachment reuses the
  // memory instead of adding to it (measured: RSS +65 MiB rather than +120 MiB over 30 bombs).
  if (reading.status === 'too_large') collectGarbage();
});
port.postMessage({ type: 'ready' } satisfies ReaderMessage);

/** V8's gc(): a worker cannot be given --expose-gc, so the flag is set now and gc taken from a fresh context. */
function garbageCollector(): () => void {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return () => {};
  }
}
