/**
 * What OCR of large images costs a reader's memory, and what the memory mark gives back:
 * `npx tsx bench/ocr-memory.ts [images] [markMb]` reads `images` 16-bit 4000×4000 PNGs (129 KiB each,
 * the size the outside tester sent) one at a time through one reader and prints the process's
 * RSS after each. markMb 0 = no mark (the readers before #31).
 */
import { AttachmentReader } from '../src/answers/attachment-reader/reader-pool.js';
import { ocrLanguage } from '../src/answers/attachment-reader/ocr.js';
import { pngOf } from '../test/answers/png.js';

const images = Number(process.argv[2] ?? 5);
const markMb = Number(process.argv[3] ?? 128);

const mib = (n: number) => Math.round(n / 1024 / 1024);
const image = pngOf(4000, 4000).toString('base64');
const replaced: number[] = [];
const reader = new AttachmentReader({
  size: 1,
  maxQueue: 4,
  timeoutMs: 120_000,
  ocrLanguages: [ocrLanguage('eng')],
  memoryMarkMb: markMb || Number.POSITIVE_INFINITY,
  log: { warn: (details: object) => void replaced.push((details as { memoryMb?: number }).memoryMb ?? 0), error: (d: object) => console.error(d) },
});
await reader.read([{ kind: 'image', contentBase64: Buffer.from('x').toString('base64') }]); // start the reader
const before = process.memoryUsage().rss;
console.log(`image: ${Math.round((image.length * 3) / 4 / 1024)} KiB; mark: ${markMb || 'none'} MiB; RSS with a started reader: ${mib(before)} MiB`);
for (let i = 1; i <= images; i++) {
  const t0 = performance.now();
  const [reading] = await reader.read([{ kind: 'image', contentBase64: image }]);
  await new Promise((r) => setTimeout(r, 300)); // a replaced reader's memory goes when its thread ends
  console.log(`after image ${i}: ${reading!.status} in ${Math.round(performance.now() - t0)} ms, RSS ${mib(process.memoryUsage().rss)} MiB (+${mib(process.memoryUsage().rss - before)})`);
}
console.log(`readers replaced past the mark: ${replaced.length}${replaced.length ? ` (at ${replaced.join(', ')} MiB)` : ''}`);
await reader.close();
