/**
 * OCR of screenshots (issue #25): one 1280×720 screenshot read by an attachment reader (the
 * reader started beforehand, as in a running server), POST /v1/answer with one screenshot
 * (embedded database, in-process app.inject, the offline generator), and the process's RSS while
 * 4 such requests run at once (2 readers on this 2-core machine, so 2 wait in the queue).
 * Prints the machine's load average with the figures: the machine is shared.
 * Usage: npx tsx bench/ocr.ts [runs]   (default 20)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { createAgent } from '../src/answers/agents/create-agent.js';
import { ocrLanguage } from '../src/answers/attachment-reader/ocr.js';
import { AttachmentReader } from '../src/answers/attachment-reader/reader-pool.js';
import { createAnswerKey } from '../src/answers/keys/create-answer-key.js';
import { importArticles } from '../src/answers/knowledge/upsert-article.js';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { openEmbedded } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { createWorkspace } from '../src/workspaces/create-workspace.js';
import { ARTICLES } from '../test/answers/answer-fixtures.js';
import { OCR_SAMPLES, OCR_STYLES, renderSample } from '../test/answers/ocr-images.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/web/browser.js';
import { EventBus } from '../src/boards/activity/event-bus.js';

const runs = Number(process.argv[2] ?? 20);
const MiB = 1024 * 1024;
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const shots = await Promise.all(OCR_SAMPLES.map((s, i) => renderSample(browser, s, OCR_STYLES[i % OCR_STYLES.length]!, i % 2 ? 'jpeg' : 'png')));
await browser.close();
console.log(`${os.availableParallelism()} cores; load average at start: ${load()}`);

// 1. One screenshot through a reader.
// A reader without OCR first: the difference is what Tesseract and its model cost a reader.
const plain = new AttachmentReader({ size: 1, maxQueue: 4, timeoutMs: 60_000, log: console });
let rss = process.memoryUsage.rss();
await plain.read([{ kind: 'image', contentBase64: 'AA==' }]);
const plainMiB = (process.memoryUsage.rss() - rss) / MiB;
await plain.close();
const reader = new AttachmentReader({ size: 1, maxQueue: 4, timeoutMs: 60_000, log: console, ocrLanguages: [ocrLanguage('eng')] });
rss = process.memoryUsage.rss();
let started = performance.now();
await reader.read([{ kind: 'image', contentBase64: 'AA==' }]);
const startedMiB = (process.memoryUsage.rss() - rss) / MiB;
console.log(`reader start (tsx, pdf.js, Tesseract with eng): ${(performance.now() - started).toFixed(0)} ms; RSS +${startedMiB.toFixed(0)} MiB (a reader without OCR: +${plainMiB.toFixed(0)} MiB)`);
const readMs: number[] = [];
for (let i = 0; i < runs; i++) {
  const shot = shots[i % shots.length]!.toString('base64');
  started = performance.now();
  const [reading] = await reader.read([{ kind: 'image', contentBase64: shot }]);
  readMs.push(performance.now() - started);
  if (!reading?.text) throw new Error(`no text read: ${JSON.stringify(reading)}`);
}
const afterMiB = (process.memoryUsage.rss() - rss) / MiB;
await reader.close();
console.log(`1280×720 screenshot read, ${runs} runs: p50 ${percentile(readMs, 50).toFixed(0)} ms, p90 ${percentile(readMs, 90).toFixed(0)} ms, max ${Math.max(...readMs).toFixed(0)} ms; the reader's RSS after them +${afterMiB.toFixed(0)} MiB (load ${load()})`);

// 2. /v1/answer with one screenshot, and 3. RSS with 4 at once.
const dir = await mkdtemp(path.join(os.tmpdir(), 'tb-ocr-bench-'));
try {
  const db = await openEmbedded(dir);
  await migrate(db);
  const user = await db.prisma.user.create({ data: { email: `ocr-bench-${Date.now()}@example.com`, name: 'Bench' } });
  const workspace = await createWorkspace({ db: db.prisma, name: 'Bench', ownerId: user.id });
  await createAgent({ db: db.prisma, workspaceId: workspace.id, input: { name: 'Bench agent' } });
  await importArticles({ db: db.prisma, workspaceId: workspace.id, articles: ARTICLES });
  const { token } = await createAnswerKey({ db: db.prisma, workspaceId: workspace.id, name: 'bench' });
  const app = await buildApp({ events: new EventBus(), config: configFrom({ DATA_DIR: dir, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '100000000', ATTACHMENT_READ_TIMEOUT_MS: '60000' }), db });
  const ask = async (n: number) => {
    const i = n % shots.length;
    const res = await app.inject({
      method: 'POST',
      url: '/v1/answer',
      headers: { 'x-api-key': token },
      payload: { message: 'see the attached screenshot', attachments: [{ mime: i % 2 ? 'image/jpeg' : 'image/png', contentBase64: shots[i]!.toString('base64') }] },
    });
    if (res.statusCode !== 200) throw new Error(`answer ${res.statusCode}: ${res.body}`);
    return res.json().sources[0]?.externalId === OCR_SAMPLES[i]!.article;
  };
  const rssNoReaders = process.memoryUsage.rss();
  await ask(0); // starts the readers
  const rssIdle = process.memoryUsage.rss();
  const answerMs: number[] = [];
  let right = 0;
  for (let n = 0; n < runs; n++) {
    started = performance.now();
    if (await ask(n)) right++;
    answerMs.push(performance.now() - started);
  }
  console.log(`/v1/answer with one screenshot, ${runs} runs: p50 ${percentile(answerMs, 50).toFixed(0)} ms, p90 ${percentile(answerMs, 90).toFixed(0)} ms; right article first ${right}/${runs} (load ${load()})`);
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    started = performance.now();
    await Promise.all([0, 1, 2, 3].map((k) => ask(r * 4 + k)));
    rounds.push(performance.now() - started);
  }
  clearInterval(sampler);
  console.log(
    `4 concurrent /v1/answer with a screenshot, 5 rounds: round p50 ${percentile(rounds, 50).toFixed(0)} ms; RSS (app and embedded database) ${(rssNoReaders / MiB).toFixed(0)} MiB before the readers started, ${(rssIdle / MiB).toFixed(0)} MiB with them started, peak ${(peak / MiB).toFixed(0)} MiB, after ${(process.memoryUsage.rss() / MiB).toFixed(0)} MiB (load ${load()})`,
  );
  await app.close();
  await db.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
