import { mkdtempSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminSocketPath, startAdminSocket } from '../../src/cli/admin-socket.js';
import { makeBoard, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

const t = useTestApp();

describe('the admin socket', () => {
  it('is owner-only and runs one command per connection', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tb-sock-'));
    const socket = await startAdminSocket({ db: t.db, config: { ...t.config, dataDir }, events: t.app.events, effects: t.app.effects });
    try {
      expect(statSync(adminSocketPath(dataDir)).mode & 0o777).toBe(0o600);
      const user = await makeUser(t.db);
      await makeBoard(t.db, user.id);
      const answer = await new Promise<string>((resolve) => {
        const c = net.connect(adminSocketPath(dataDir));
        let out = '';
        c.on('connect', () => {
          c.write(`${JSON.stringify({ argv: ['key', 'create', '--email', user.email, '--name', 'one'] })}\n`);
          c.write(`${JSON.stringify({ argv: ['key', 'create', '--email', user.email, '--name', 'two'] })}\n`);
        });
        c.on('data', (d) => (out += d));
        c.on('end', () => resolve(out));
      });
      expect(JSON.parse(answer)).toMatchObject({ exitCode: 0, body: { token: expect.stringMatching(/^tsk_/) } });
      await new Promise((r) => setTimeout(r, 50));
      expect((await t.db.prisma.apiKey.findMany({ where: { userId: user.id } })).map((k) => k.name)).toEqual(['one']);
    } finally {
      await socket!.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
