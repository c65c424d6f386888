import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** One OCR language: its code (`eng`) and the folder holding `<code>.traineddata.gz`. */
export interface OcrLanguage {
  code: string;
  dir: string;
}

/** Reads the text in one image (PNG, JPEG, WebP, GIF's first frame); see startOcr. */
export interface Ocr {
  /** The words Tesseract is fairly sure of, line by line; '' for a photo. Throws on a file it cannot decode. */
  recognize(image: Uint8Array): Promise<string>;
  /**
   * Bytes of Tesseract's WebAssembly memory. It grows with the largest image decoded (a 16-bit
   * 4000×4000 PNG: +187 MiB) and a WebAssembly memory never shrinks: the pool replaces a reader past its mark.
   */
  memoryBytes(): number;
}

/**
 * Below this confidence (0-100) a word is dropped: the outlines of buttons and a photo's textures
 * come out as short runs of letters at 0-23, real words at 72-97, a code such as `E-4417:` in a
 * small dark JPEG at 32 (measured on the tests' screenshots).
 */
const MIN_WORD_CONFIDENCE = 25;

/**
 * Where a language's data is: the npm package `@tesseract.js-data/<code>`, LSTM-only ("best_int",
 * 3 MB for English). Throws, naming the package to install, when it is missing: the server never
 * downloads it.
 */
export function ocrLanguage(code: string): OcrLanguage {
  let manifest: string;
  try {
    manifest = require.resolve(`@tesseract.js-data/${code}/package.json`);
  } catch {
    throw new Error(`OCR_LANGUAGES: no data for "${code}"; install it with \`npm install @tesseract.js-data/${code}\``);
  }
  return { code, dir: path.join(path.dirname(manifest), '4.0.0_best_int') };
}

/**
 * Starts Tesseract (tesseract.js's WebAssembly build) in this thread, with the languages' models
 * loaded once: meant for a reader worker, which reuses it for every image it reads. tesseract.js's
 * own createWorker would start yet another thread, outside the reader's heap limit and deadline;
 * its worker script is driven here directly instead, with an adapter that reads files from
 * node_modules and refuses to fetch anything.
 */
export async function startOcr(languages: OcrLanguage[]): Promise<Ocr> {
  const tesseract = require('tesseract.js/src/worker-script/index.js') as TesseractWorkerScript;
  const getCore = require('tesseract.js/src/worker-script/node/getCore.js') as (...args: unknown[]) => Promise<(options: object) => Promise<unknown>>;
  let memory: { buffer: ArrayBuffer } | undefined;
  tesseract.setAdapter({
    // The core's WebAssembly memory, kept to read its size: the core does not export it, so it is
    // taken from the instance as the core starts (this thread starts no other WebAssembly meanwhile).
    getCore: async (...args: unknown[]) => {
      const factory = await getCore(...args);
      return async (options: object) => {
        const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
        const instantiate = wasm.instantiate;
        wasm.instantiate = async (...given: unknown[]) => {
          const result = await instantiate.apply(wasm, given);
          const instance = result instanceof wasm.Instance ? result : (result as { instance: { exports: object } }).instance;
          // Exported by the module, or handed in among its imports.
          const imports = Object.values((given[1] ?? {}) as Record<string, object>).flatMap((group) => Object.values(group ?? {}));
          memory ??= [...Object.values(instance.exports), ...imports].find((e): e is { buffer: ArrayBuffer } => e instanceof wasm.Memory);
          return result;
        };
        try {
          return await factory(options);
        } finally {
          wasm.instantiate = instantiate;
        }
      };
    },
    gunzip: require('tesseract.js/src/worker-script/node/gunzip.js'),
    fetch: () => Promise.reject(new Error('OCR: language data comes from node_modules, never from the network')),
    readCache: (file: string) => readFile(file),
    writeCache: () => Promise.resolve(),
    deleteCache: () => Promise.resolve(),
    checkCache: () => Promise.resolve(false),
  });
  let jobs = 0;
  const call = (action: string, payload: object) =>
    new Promise<any>((resolve, reject) => {
      tesseract.dispatchHandlers({ workerId: 'reader', jobId: String(jobs++), action, payload }, (message) => {
        if (message.status === 'resolve') resolve(message.data);
        else if (message.status === 'reject') reject(new Error(`OCR ${action}: ${String(message.data)}`));
      });
    });
  // OEM 1: LSTM only, the engine the best_int models carry.
  await call('load', { options: { lstmOnly: true, corePath: '', logging: false } });
  for (const { code, dir } of languages) {
    await call('loadLanguage', { langs: code, options: { langPath: dir, cacheMethod: 'none', gzip: true, lstmOnly: true } });
  }
  await call('initialize', { langs: languages.map((l) => l.code).join('+'), oem: 1, config: {} });
  return {
    async recognize(image) {
      const result = await call('recognize', { image, options: {}, output: { text: false, tsv: true } });
      return confidentText(String(result.tsv ?? ''));
    },
    memoryBytes: () => memory?.buffer.byteLength ?? 0,
  };
}

/** Tesseract's TSV (one row per word, with its line and confidence) as text, without the doubtful words. */
export function confidentText(tsv: string): string {
  const lines = new Map<string, string[]>();
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    // level 5 is a word: level, page, block, paragraph, line, word, left, top, width, height, conf, text
    if (cells[0] !== '5' || cells.length < 12) continue;
    const word = cells.slice(11).join('\t').trim();
    if (!word || Number(cells[10]) < MIN_WORD_CONFIDENCE || !/[\p{L}\p{N}]/u.test(word)) continue;
    const line = cells.slice(1, 5).join('.');
    lines.set(line, [...(lines.get(line) ?? []), word]);
  }
  return [...lines.values()].map((words) => words.join(' ')).join('\n');
}

/** The little of the WebAssembly global used here (the project's TypeScript libs do not declare it). */
interface WasmApi {
  instantiate(...args: unknown[]): Promise<unknown>;
  Instance: new (...args: never[]) => { exports: object };
  Memory: new (...args: never[]) => { buffer: ArrayBuffer };
}

interface TesseractWorkerScript {
  setAdapter(adapter: object): void;
  dispatchHandlers(packet: { workerId: string; jobId: string; action: string; payload: object }, send: (message: { status: string; data: unknown }) => void): void;
}
