import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { DataDirBusyError } from '../../src/platform/database/data-dir-lock.js';
import { openEmbedded } from '../../src/platform/db.js';
import { migrate } from '../../src/platform/database/migrate.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'tb-embedded-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('keeps data in DATA_DIR across close and reopen, and lets one holder at a time open it', async () => {
  const first = await openEmbedded(dataDir);
  await migrate(first);
  const created = await first.prisma.user.create({ data: { email: 'keep@example.com', name: 'Keep' } });
  await expect(openEmbedded(dataDir)).rejects.toBeInstanceOf(DataDirBusyError);
  await first.close();

  const second = await openEmbedded(dataDir);
  try {
    expect(await migrate(second)).toMatchObject({ applied: [] });
    expect(await second.prisma.user.findUnique({ where: { id: created.id } })).toMatchObject({ email: 'keep@example.com' });
  } finally {
    await second.close();
  }
}, 90_000); // opens PGlite three times: slow on a loaded machine
