import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/run-command.js';
import { makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

const t = useTestApp();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kb-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const admin = (...argv: string[]) => runCommand(argv, { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
const file = async (content: string) => {
  const f = path.join(dir, `${Math.random()}.json`);
  await writeFile(f, content);
  return f;
};

describe('workspace, answer-key, agent and knowledge commands', () => {
  it('print exactly the fields SPEC §2 lists', async () => {
    const owner = await makeUser(t.db);
    const ws = await admin('workspace', 'create', '--name', 'Acme support', '--owner', owner.email);
    expect(ws).toEqual({ exitCode: 0, body: { id: expect.any(Number), name: 'Acme support' } });
    const W = String(ws.body.id);
    expect(await admin('answer-key', 'create', '--workspace', W, '--name', 'widget')).toEqual({
      exitCode: 0,
      body: { id: expect.any(Number), token: expect.stringMatching(/^ans_[0-9A-Za-z]{46}$/), prefix: expect.stringMatching(/^ans_.{6}$/) },
    });
    expect(await admin('agent', 'create', '--workspace', W, '--name', 'First')).toEqual({ exitCode: 0, body: { id: expect.stringMatching(/^agt_/), name: 'First', default: true } });
    expect(await admin('agent', 'create', '--workspace', W, '--name', 'Second', '--fallback-message', 'Ask a human.')).toEqual({ exitCode: 0, body: { id: expect.any(String), name: 'Second', default: false } });
    expect((await admin('agent', 'create', '--workspace', W, '--name', 'Third', '--default')).body.default).toBe(true);
    expect(await admin('knowledge', 'add', '--workspace', W, '--external-id', 'a-1', '--title', 'T', '--body', 'B', '--url', 'https://x.example/a-1')).toEqual({ exitCode: 0, body: { id: expect.any(Number), externalId: 'a-1' } });
    const f = await file(JSON.stringify([{ externalId: 'a-1', title: 'T2', body: 'B2' }, { externalId: 'a-2', title: 'T', body: 'B' }]));
    expect(await admin('knowledge', 'import', '--workspace', W, '--file', f)).toEqual({ exitCode: 0, body: { imported: 2 } });
    expect((await t.db.prisma.article.findFirstOrThrow({ where: { workspaceId: Number(W), externalId: 'a-1' } })).title).toBe('T2');
    expect(await admin('knowledge', 'remove', '--workspace', W, '--external-id', 'a-2')).toEqual({ exitCode: 0, body: { externalId: 'a-2', removed: true } });
    expect(await admin('workspace', 'limit', '--workspace', W, '--conversations', '100')).toEqual({ exitCode: 0, body: { id: Number(W), conversationLimit: 100 } });
  });

  it('fail with exit 1 and {error} naming the flag or the file\'s fault', async () => {
    const owner = await makeUser(t.db);
    const W = String((await admin('workspace', 'create', '--name', 'W', '--owner', owner.email)).body.id);
    expect((await admin('answer-key', 'create', '--name', 'x')).body.error).toMatch(/^--workspace is required \(usage: /);
    expect(await admin('answer-key', 'create', '--workspace', '999999', '--name', 'x')).toEqual({ exitCode: 1, body: { error: 'workspace: no workspace 999999' } });
    expect((await admin('workspace', 'create', '--name', 'W', '--owner', 'nobody@example.com')).body.error).toMatch(/no user/);
    expect((await admin('knowledge', 'import', '--workspace', W, '--file', await file('not json'))).body.error).toMatch(/^--file: not readable JSON/);
    expect((await admin('knowledge', 'import', '--workspace', W, '--file', '/no/such/file.json')).body.error).toBe('--file: no such file');
    expect((await admin('knowledge', 'import', '--workspace', W, '--file', await file('[{"externalId":"x","body":"b"}]'))).body.error).toMatch(/^--file: \[0\]\.title: /);
    expect((await admin('knowledge', 'remove', '--workspace', W, '--external-id', 'nope')).exitCode).toBe(1);
    expect((await admin('workspace', 'limit', '--workspace', W, '--conversations', 'lots')).body.error).toMatch(/^--conversations: /);
    expect(await t.db.prisma.article.count({ where: { workspaceId: Number(W) } })).toBe(0);
  });
});
