/**
 * Issue #31 item 4: how long building the index of the largest knowledge allowed (by default 200
 * articles of 100,000 characters, 20 MB) stalls the event loop. Seeds an embedded database, then
 * builds the index once with `monitorEventLoopDelay` running and prints the largest stall, the
 * build's time and the heap it added.
 * Usage: npx tsx scripts/repro/knowledge-stall.ts [index-cache module] [articles] [characters each]
 *   index-cache module: another version of src/answers/knowledge/index-cache.ts to measure, e.g. the
 *   one before the fix: git show <commit>:src/answers/knowledge/index-cache.ts with its imports made absolute.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { importArticles } from '../../src/answers/knowledge/upsert-article.js';
import { DEFAULT_KNOWLEDGE_LIMITS } from '../../src/answers/knowledge/knowledge-limits.js';
import { openEmbedded } from '../../src/platform/db.js';
import { migrate } from '../../src/platform/database/migrate.js';
import { createWorkspace } from '../../src/workspaces/create-workspace.js';
import { filler } from '../../test/answers/knowledge-fixtures.js';

const modulePath = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../../src/answers/knowledge/index-cache.ts'));
const perArticle = Number(process.argv[4] ?? DEFAULT_KNOWLEDGE_LIMITS.maxArticleChars);
const count = Number(process.argv[3] ?? Math.floor(DEFAULT_KNOWLEDGE_LIMITS.maxWorkspaceChars / perArticle));
const { knowledgeIndex } = (await import(modulePath)) as typeof import('../../src/answers/knowledge/index-cache.js');

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'knowledge-stall-'));
const db = await openEmbedded(dataDir);
try {
  await migrate(db);
  const user = await db.prisma.user.create({ data: { email: 'repro@example.com', name: 'Repro' } });
  const workspace = await createWorkspace({ db: db.prisma, name: 'Repro', ownerId: user.id });
  // Past the limits only when asked for (a count or size beyond them measures what they prevent).
  const limits = { maxArticleChars: Math.max(perArticle, DEFAULT_KNOWLEDGE_LIMITS.maxArticleChars), maxWorkspaceChars: Math.max(perArticle * count, DEFAULT_KNOWLEDGE_LIMITS.maxWorkspaceChars) };
  for (let i = 0; i < count; i += 20) {
    const articles = Array.from({ length: Math.min(20, count - i) }, (_, k) => ({ externalId: `a-${i + k}`, title: `Article ${i + k}`, body: filler(perArticle - 20, i + k) }));
    await importArticles({ db: db.prisma, workspaceId: workspace.id, articles, limits });
  }
  const { knowledgeVersion } = await db.prisma.workspace.findUniqueOrThrow({ where: { id: workspace.id } });
  const heapBefore = process.memoryUsage().heapUsed;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  // The monitor's timer runs from the loop's next turn: a stall before that is not seen.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = performance.now();
  const index = await knowledgeIndex({ db: db.prisma, workspaceId: workspace.id, version: knowledgeVersion });
  const took = performance.now() - started;
  // A stall is recorded when the monitor's timer next runs: let it run once more after the build.
  await new Promise((resolve) => setTimeout(resolve, 50));
  loop.disable();
  console.log(JSON.stringify({
    module: path.relative(process.cwd(), modulePath),
    articles: index.articles.length,
    charactersEach: perArticle,
    buildMs: Math.round(took),
    maxEventLoopStallMs: Math.round(loop.max / 1e6),
    p99EventLoopDelayMs: Math.round(loop.percentile(99) / 1e6),
    heapAddedMiB: Math.round((process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024),
  }));
} finally {
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
}
