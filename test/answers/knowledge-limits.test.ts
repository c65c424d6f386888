import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/run-command.js';
import { indexCacheUsage, knowledgeIndex } from '../../src/answers/knowledge/index-cache.js';
import { loginCookie, makeUser } from '../factories.js';
import { useTestApp, type TestAppHandle } from '../helper.js';
import { filler } from './knowledge-fixtures.js';

async function ownWorkspace(t: TestAppHandle) {
  const owner = await makeUser(t.db);
  const { cookie } = await loginCookie(t.app, owner.email, owner.password);
  const created = await t.app.inject({ method: 'POST', url: '/agent/workspaces', headers: { cookie }, payload: { name: 'Big knowledge' } });
  expect(created.statusCode).toBe(201);
  const id = created.json().id as number;
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url: `/agent/workspaces/${id}${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  const count = () => t.db.prisma.article.count({ where: { workspaceId: id } });
  return { id, owner, call, count };
}

describe('knowledge limits, with the defaults (100,000 characters an article)', () => {
  const t = useTestApp();

  it('refuses an article of 150,000 characters with 413 on POST, PUT and import (dry run too), creating nothing', async () => {
    const w = await ownWorkspace(t);
    const big = { title: 'Huge', body: filler(150_000, 1) };
    for (const response of [
      await w.call('POST', '/articles', big),
      await w.call('PUT', '/articles/huge', big),
      await w.call('POST', '/articles/import', { articles: [{ externalId: 'ok', title: 'Fine', body: 'A fine article.' }, { externalId: 'huge', ...big }] }),
      await w.call('POST', '/articles/import', { articles: [{ externalId: 'huge', ...big }], dryRun: true }),
    ]) {
      expect(response.statusCode).toBe(413);
      expect(response.json().error).toMatch(/150,004 characters .* at most 100,000 \(KNOWLEDGE_MAX_ARTICLE_CHARS\)/);
    }
    expect(await w.count()).toBe(0);
  });
});

describe('knowledge limits, configured small', () => {
  const t = useTestApp({ KNOWLEDGE_MAX_ARTICLE_CHARS: '2000', KNOWLEDGE_MAX_WORKSPACE_CHARS: '10000' });
  const fields = (i: number) => ({ title: `Article ${i}`, body: filler(1890, i) });
  const article = (i: number) => ({ externalId: `a-${i}`, ...fields(i) });

  it('an import past the workspace limit is 413 and creates nothing; a dry run says the same', async () => {
    const w = await ownWorkspace(t);
    const articles = [1, 2, 3, 4, 5, 6].map(article);
    for (const dryRun of [true, false]) {
      const response = await w.call('POST', '/articles/import', { articles, dryRun });
      expect(response.statusCode).toBe(413);
      expect(response.json().error).toMatch(/workspace's knowledge would have 11,\d{3} characters .* at most 10,000 \(KNOWLEDGE_MAX_WORKSPACE_CHARS\)/);
    }
    expect(await w.count()).toBe(0);
  });

  it('counts what the workspace has: a new article past the limit is 413, replacing one of the same size is not', async () => {
    const w = await ownWorkspace(t);
    expect((await w.call('POST', '/articles/import', { articles: [1, 2, 3, 4].map(article) })).statusCode).toBe(200);
    expect((await w.call('POST', '/articles', article(5))).statusCode).toBe(201);
    const sixth = await w.call('PUT', '/articles/a-6', fields(6));
    expect(sixth.statusCode).toBe(413);
    expect((await w.call('POST', '/articles', article(6))).statusCode).toBe(413);
    expect((await w.call('POST', '/articles/import', { articles: [article(6)], dryRun: true })).statusCode).toBe(413);
    expect((await w.call('PUT', '/articles/a-5', fields(7))).statusCode).toBe(200);
    expect((await w.call('POST', '/articles/import', { articles: [1, 2].map(article) })).statusCode).toBe(200);
    expect(await w.count()).toBe(5);
  });

  it('the admin CLI refuses the same, naming the limit', async () => {
    const w = await ownWorkspace(t);
    const admin = (...argv: string[]) => runCommand(argv, { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
    const added = await admin('knowledge', 'add', '--workspace', String(w.id), '--external-id', 'x', '--title', 'T', '--body', filler(2500, 9));
    expect(added).toMatchObject({ exitCode: 1 });
    expect(JSON.stringify(added.body)).toMatch(/KNOWLEDGE_MAX_ARTICLE_CHARS/);
    const file = path.join(os.tmpdir(), `kb-limits-${process.pid}-${Date.now()}.json`);
    await writeFile(file, JSON.stringify([1, 2, 3, 4, 5, 6].map(article)));
    try {
      const imported = await admin('knowledge', 'import', '--workspace', String(w.id), '--file', file);
      expect(imported).toMatchObject({ exitCode: 1 });
      expect(JSON.stringify(imported.body)).toMatch(/KNOWLEDGE_MAX_WORKSPACE_CHARS/);
    } finally {
      await rm(file, { force: true });
    }
    expect(await w.count()).toBe(0);
  });
});

describe('the knowledge index cache, bounded by bytes', () => {
  const t = useTestApp({ KNOWLEDGE_INDEX_CACHE_MB: '1' });

  it('drops the least recently used indexes past KNOWLEDGE_INDEX_CACHE_MB, however few workspaces there are', async () => {
    const db = t.app.db.prisma;
    const ids: number[] = [];
    for (let k = 0; k < 3; k++) {
      const w = await ownWorkspace(t);
      // 50,000 characters: about 400 KB of index each, so two fit in 1 MB and three do not.
      const articles = [0, 1, 2, 3, 4].map((i) => ({ externalId: `a-${i}`, title: `Article ${i}`, body: filler(10_000, k * 10 + i) }));
      expect((await w.call('POST', '/articles/import', { articles })).statusCode).toBe(200);
      ids.push(w.id);
    }
    const version = async (id: number) => (await db.workspace.findUniqueOrThrow({ where: { id } })).knowledgeVersion;
    const first = await knowledgeIndex({ db, workspaceId: ids[0]!, version: await version(ids[0]!) });
    expect(await knowledgeIndex({ db, workspaceId: ids[0]!, version: await version(ids[0]!) })).toBe(first);
    await knowledgeIndex({ db, workspaceId: ids[1]!, version: await version(ids[1]!) });
    await knowledgeIndex({ db, workspaceId: ids[2]!, version: await version(ids[2]!) });
    const usage = indexCacheUsage(db);
    expect(usage.maxBytes).toBe(1024 * 1024);
    expect(usage.bytes).toBeLessThanOrEqual(usage.maxBytes);
    expect(usage.workspaces.map((w) => w.workspaceId)).toEqual([ids[1], ids[2]]);
    // The first was dropped: asking again builds a new index.
    expect(await knowledgeIndex({ db, workspaceId: ids[0]!, version: await version(ids[0]!) })).not.toBe(first);
    expect(indexCacheUsage(db).workspaces.map((w) => w.workspaceId)).toEqual([ids[2], ids[0]]);
  });
});

describe('who may create workspaces (WORKSPACE_CREATORS=site_admins)', () => {
  const t = useTestApp({ WORKSPACE_CREATORS: 'site_admins' });

  it('a signed-in user gets 403 naming the setting; a site admin creates one', async () => {
    const user = await makeUser(t.db);
    const { cookie } = await loginCookie(t.app, user.email, user.password);
    const refused = await t.app.inject({ method: 'POST', url: '/agent/workspaces', headers: { cookie }, payload: { name: 'Mine' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatch(/only site administrators may create workspaces .*WORKSPACE_CREATORS/);
    const admin = await makeUser(t.db, { siteAdmin: true });
    const adminCookie = (await loginCookie(t.app, admin.email, admin.password)).cookie;
    expect((await t.app.inject({ method: 'POST', url: '/agent/workspaces', headers: { cookie: adminCookie }, payload: { name: 'Theirs' } })).statusCode).toBe(201);
  });
});
