import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { knowledgeIndex } from '../../src/answers/knowledge/index-cache.js';
import { importArticles } from '../../src/answers/knowledge/upsert-article.js';
import { createWorkspace } from '../../src/workspaces/create-workspace.js';
import { makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { filler } from './knowledge-fixtures.js';

const t = useTestApp();

describe('building the index of the largest knowledge allowed', () => {
  it('never stalls the event loop for long: /healthz keeps answering within a second throughout', { timeout: 600_000 }, async () => {
    const { KNOWLEDGE_MAX_ARTICLE_CHARS: perArticle, KNOWLEDGE_MAX_WORKSPACE_CHARS: perWorkspace } = t.config;
    const owner = await makeUser(t.db);
    const workspace = await createWorkspace({ db: t.db.prisma, name: 'Largest allowed', ownerId: owner.id });
    const count = Math.floor(perWorkspace / perArticle);
    for (let i = 0; i < count; i += 20) {
      const articles = Array.from({ length: Math.min(20, count - i) }, (_, k) => ({ externalId: `a-${i + k}`, title: `Article ${i + k}`, body: filler(perArticle - 20, i + k) }));
      await importArticles({ db: t.db.prisma, workspaceId: workspace.id, articles });
    }
    const { knowledgeVersion } = await t.db.prisma.workspace.findUniqueOrThrow({ where: { id: workspace.id } });

    const loop = monitorEventLoopDelay({ resolution: 10 });
    // A second measure of the same thing: the longest gap between ticks of a 10 ms interval.
    let lastTick = performance.now();
    let maxGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - lastTick - 10);
      lastTick = now;
    }, 10);
    let building = true;
    // From each /healthz request's due time (the previous answer plus 20 ms) to its answer.
    const waits: number[] = [];
    const probe = (async () => {
      let due = performance.now();
      while (building) {
        const response = await t.app.inject({ method: 'GET', url: '/healthz' });
        expect(response.statusCode).toBe(200);
        waits.push(performance.now() - due);
        due = performance.now() + 20;
        await sleep(20);
      }
    })();
    loop.enable();
    // The monitor's timer runs from the loop's next turn: a stall before that is not seen.
    await sleep(50);
    const started = performance.now();
    const index = await knowledgeIndex({ db: t.app.db.prisma, workspaceId: workspace.id, version: knowledgeVersion });
    const took = performance.now() - started;
    // A stall is recorded when the monitor's timer next runs: let it run once more after the build.
    await sleep(50);
    loop.disable();
    clearInterval(ticker);
    building = false;
    await probe;

    expect(index.articles).toHaveLength(count);
    const stall = Math.max(loop.max / 1e6, maxGap);
    console.log(`index of ${count} articles x ${perArticle} characters built in ${Math.round(took)} ms; largest event-loop stall ` +
      `${Math.round(stall)} ms (monitorEventLoopDelay ${Math.round(loop.max / 1e6)} ms, interval ${Math.round(maxGap)} ms); ` +
      `${waits.length} /healthz, the slowest answered ${Math.round(Math.max(...waits))} ms after it was due`);
    // Slices of a few ms, the longest being one article's tokenising (50-150 ms unloaded) or the final
    // assembly of the index (~200 ms): far from the whole build (seconds) that used to run in one go.
    // Load-proof: a stall is a small part of the build (it used to be the whole of it) …
    expect(stall).toBeLessThan(took / 5);
    // … and what the issue asks, with room for a loaded machine (unloaded: ~200 ms).
    expect(stall).toBeLessThan(1000);
    expect(Math.max(...waits)).toBeLessThan(1000);
    expect(waits.length).toBeGreaterThan(10);
  });
});
