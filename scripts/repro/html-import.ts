/**
 * Issue #44 item 2: what reading an HTML page for the knowledge import costs the event loop. Reads
 * each page of the nested-HTML series (and a 14 MB page) with readArticleFiles and a real attachment
 * reader pool, with `monitorEventLoopDelay` running, and prints per page: the time, the largest
 * event-loop stall, the process's RSS growth, and what came back (a title and text, or the problem).
 * Usage: npx tsx scripts/repro/html-import.ts [case …]
 *   cases: div:<levels> (nested <div>s), b:<levels> (nested <b>), big:<MB> (a flat page of that size);
 *   default: div:200 div:800 div:2000 div:20000 div:100000 b:20000 big:14
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { AttachmentReader } from '../../src/answers/attachment-reader/reader-pool.js';
import { readArticleFiles } from '../../src/answers/knowledge/read-article-files.js';
import { nestedHtml, bigHtml } from '../../test/answers/html-pages.js';

const cases = process.argv.slice(2).length ? process.argv.slice(2) : ['div:200', 'div:800', 'div:2000', 'div:20000', 'div:100000', 'b:20000', 'big:14'];
const log = { warn: (d: object, m: string) => console.error('warn', m, JSON.stringify(d)), error: (d: object, m: string) => console.error('error', m, JSON.stringify(d)) };
const reader = new AttachmentReader({ size: 1, maxQueue: 20, timeoutMs: Number(process.env.ATTACHMENT_READ_TIMEOUT_MS ?? 2000), log });
// A first page, so that no case pays for starting the reader.
await readArticleFiles({ reader, files: [{ filename: 'warm.html', contentBase64: Buffer.from('<p>warm</p>').toString('base64') }] });

for (const name of cases) {
  const [kind, size] = name.split(':') as [string, string];
  const html = kind === 'big' ? bigHtml(Number(size) * 1024 * 1024) : nestedHtml(kind, Number(size));
  const contentBase64 = Buffer.from(html).toString('base64');
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = performance.now();
  let outcome: string;
  try {
    const [text] = await readArticleFiles({ reader, files: [{ filename: `${kind}.html`, contentBase64 }] });
    outcome = text!.problem ? `problem: ${text!.problem}` : `text: ${text!.text!.length} chars`;
  } catch (error) {
    outcome = `threw ${(error as Error).name}: ${(error as Error).message.slice(0, 80)}`;
  }
  const took = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 50));
  loop.disable();
  clearInterval(sampler);
  console.log(JSON.stringify({ case: name, bytes: html.length, ms: Math.round(took), maxEventLoopStallMs: Math.round(loop.max / 1e6), rssAddedMiB: Math.round((rssPeak - rssBefore) / 1024 / 1024), outcome }));
}
await reader.close();
