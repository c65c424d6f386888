/**
 * The answer path in-process, for comparing trees: `npx tsx bench/answer-path.ts [answers]`. The embedded database,
 * the answer benchmarks' 1,000 articles, lexical ranking (SEMANTIC_RANKING=false); after 30 warm-up answers, the p50
 * and p90 of `answers` POST /v1/answer through app.inject, one at a time, then the median of 15 first answers after a
 * knowledge change (one article rewritten, the index rebuilt). Copied into an older checkout (its import paths
 * adjusted), it measures that tree on the same articles; run the two alternately (bench/RESULTS.md, 2026-12-08).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createAgent } from '../src/answers/agents/create-agent.js';
import { createAnswerKey } from '../src/answers/keys/create-answer-key.js';
import { importArticles, upsertArticle } from '../src/answers/knowledge/upsert-article.js';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { openEmbedded } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { createWorkspace } from '../src/workspaces/create-workspace.js';
import { EventBus } from '../src/boards/activity/event-bus.js';
import { QUESTIONS, thousandArticles } from './answer-knowledge.js';
const n = Number(process.argv[2] ?? 1000);
const dir = await mkdtemp(path.join(os.tmpdir(), 'tb-ans-'));
const db = await openEmbedded(dir);
await migrate(db);
const user = await db.prisma.user.create({ data: { email: `a-${Date.now()}@example.com`, name: 'Bench' } });
const workspace = await createWorkspace({ db: db.prisma, name: 'Bench', ownerId: user.id });
await createAgent({ db: db.prisma, workspaceId: workspace.id, input: { name: 'Bench agent' } });
await importArticles({ db: db.prisma, workspaceId: workspace.id, articles: thousandArticles() });
const { token } = await createAnswerKey({ db: db.prisma, workspaceId: workspace.id, name: 'bench' });
const app = await buildApp({ events: new EventBus(), config: configFrom({ DATA_DIR: dir, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '100000000', SEMANTIC_RANKING: 'false' }), db });
const ask = async (i: number) => {
  const res = await app.inject({ method: 'POST', url: '/v1/answer', headers: { 'x-api-key': token, 'content-type': 'application/json' }, payload: JSON.stringify({ message: QUESTIONS[i % QUESTIONS.length], channel: 'bench' }) });
  if (res.statusCode !== 200) throw new Error(res.body);
};
for (let i = 0; i < 30; i++) await ask(i);
const times: number[] = [];
for (let i = 0; i < n; i++) {
  const t0 = performance.now();
  await ask(i);
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
console.log(`p50 ${times[Math.floor(n / 2)]!.toFixed(2)} ms, p90 ${times[Math.floor(n * 0.9)]!.toFixed(2)} ms`);
const cold: number[] = [];
for (let i = 0; i < 15; i++) {
  await upsertArticle({ db: db.prisma, workspaceId: workspace.id, article: { externalId: 'gen-500', title: `Changed ${i}`, body: `A changed article, version ${i}.` } });
  const t0 = performance.now();
  await ask(0);
  cold.push(performance.now() - t0);
}
cold.sort((a, b) => a - b);
console.log(`first answer after a change: median of 15 ${cold[7]!.toFixed(1)} ms (min ${cold[0]!.toFixed(1)}, max ${cold[14]!.toFixed(1)})`);
await app.close();
await db.close();
await rm(dir, { recursive: true, force: true });
