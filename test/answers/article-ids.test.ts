import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/run-command.js';
import { loginCookie, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

const t = useTestApp();

async function consoleWorkspace() {
  const owner = await makeUser(t.db);
  const { cookie } = await loginCookie(t.app, owner.email, owner.password);
  const created = await t.app.inject({ method: 'POST', url: '/agent/workspaces', headers: { cookie }, payload: { name: 'Ids' } });
  expect(created.statusCode).toBe(201);
  const id = created.json().id as number;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/agent/workspaces/${id}${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  return { id, call };
}

const article = { title: 'An article', body: 'Some words about the product.' };
const tooLong = 'x'.repeat(101);

describe('article externalIds (#31: ".", ".." and ids past 100 characters were created, then unreachable)', () => {
  it('refuses ".", ".." and ids over 100 characters with a 400 naming the rule, on POST, PUT and import, creating nothing', async () => {
    const w = await consoleWorkspace();
    for (const bad of ['.', '..', tooLong]) {
      const rule = bad === tooLong ? /externalId.*must be 1-100 characters/ : /externalId.*must not be "\." or "\.\."/;
      const posted = await w.call('POST', '/articles', { externalId: bad, ...article });
      expect(posted.statusCode, bad).toBe(400);
      expect(posted.json().error, bad).toMatch(rule);
      for (const dryRun of [false, true]) {
        const imported = await w.call('POST', '/articles/import', { articles: [{ externalId: 'fine', ...article }, { externalId: bad, ...article }], dryRun });
        expect(imported.statusCode, bad).toBe(400);
        expect(imported.json().error, bad).toMatch(rule);
      }
    }
    // PUT names the id in its path, where URL parsers resolve "." and ".." (even as %2E) before the
    // route sees them; a longer id is the router's 414, as before.
    for (const encoded of ['%2E', '.%2e']) {
      const put = await w.call('PUT', `/articles/${encoded}`, article);
      expect([400, 404], encoded).toContain(put.statusCode);
    }
    expect(await t.db.prisma.article.count({ where: { workspaceId: w.id } })).toBe(0);
  });

  it('refuses them in the CLI too (add and import)', async () => {
    const w = await consoleWorkspace();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kb-ids-'));
    try {
      for (const bad of ['.', '..', tooLong]) {
        const added = await runCommand(['knowledge', 'add', '--workspace', String(w.id), '--external-id', bad, '--title', 'T', '--body', 'B'], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
        expect(added.exitCode, bad).toBe(1);
        expect(JSON.stringify(added.body), bad).toMatch(/external-?id.*(must be 1-100 characters|must not be)/i);
        const file = path.join(dir, `${bad.length}.json`);
        await writeFile(file, JSON.stringify([{ externalId: bad, ...article }]));
        const imported = await runCommand(['knowledge', 'import', '--workspace', String(w.id), '--file', file], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
        expect(imported.exitCode, bad).toBe(1);
        expect(JSON.stringify(imported.body), bad).toMatch(/externalId.*(must be 1-100 characters|must not be)/);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(await t.db.prisma.article.count({ where: { workspaceId: w.id } })).toBe(0);
  });

  it('every id that can be created can be read and deleted: 100 characters, slashes, dots, percent signs, other scripts', async () => {
    const w = await consoleWorkspace();
    const ids = ['y'.repeat(100), 'a/b', '...', '.hidden', 'x..', '50% off?#1', 'é'.repeat(100), 'import'];
    for (const externalId of ids) {
      expect((await w.call('POST', '/articles', { externalId, ...article })).statusCode, externalId).toBe(201);
      const read = await w.call('GET', `/articles/${encodeURIComponent(externalId)}`);
      expect(read.statusCode, externalId).toBe(200);
      expect(read.json().externalId).toBe(externalId);
      expect((await w.call('PUT', `/articles/${encodeURIComponent(externalId)}`, { ...article, title: 'Changed' })).statusCode, externalId).toBe(200);
      expect((await w.call('DELETE', `/articles/${encodeURIComponent(externalId)}`)).statusCode, externalId).toBe(204);
    }
    expect(await t.db.prisma.article.count({ where: { workspaceId: w.id } })).toBe(0);
  });
});
