/**
 * The outside tester's repro of issue #22 (item 2): a server started as `npm start` does, then two
 * concurrent POST /v1/answer calls with five PDFs each, every one 200 KB inflating to 200 MiB.
 * Prints each call's time, the slowest /healthz meanwhile and the server's RSS (VmRSS).
 * Usage: npx tsx scripts/repro/pdf-bomb.ts [server root]
 *   server root: another checkout to run the server from (default this one), e.g. to measure the
 *   code before the fix: git archive <commit> src prisma | tar -x -C /tmp/old, with node_modules
 *   and src/generated linked from here.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createAgent } from '../../src/answers/agents/create-agent.js';
import { createAnswerKey } from '../../src/answers/keys/create-answer-key.js';
import { importArticles } from '../../src/answers/knowledge/upsert-article.js';
import { openEmbedded } from '../../src/platform/db.js';
import { migrate } from '../../src/platform/database/migrate.js';
import { createWorkspace } from '../../src/workspaces/create-workspace.js';
import { pdfBomb } from '../../test/answers/attachment-bombs.js';
import { freePort } from '../../test/net.js';

const serverRoot = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../..'));
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function seed(dataDir: string) {
  const db = await openEmbedded(dataDir);
  try {
    await migrate(db);
    const user = await db.prisma.user.create({ data: { email: 'repro@example.com', name: 'Repro' } });
    const workspace = await createWorkspace({ db: db.prisma, name: 'Repro', ownerId: user.id });
    // needs_human: a reply says whether any attachment could be read.
    await createAgent({ db: db.prisma, workspaceId: workspace.id, input: { name: 'Repro agent', attachmentFallback: 'needs_human' } });
    await importArticles({
      db: db.prisma,
      workspaceId: workspace.id,
      articles: [{ externalId: 'pw-reset', title: 'Reset your password', body: 'If you forgot your password, click "Forgot password?" on the sign-in page.' }],
    });
    return (await createAnswerKey({ db: db.prisma, workspaceId: workspace.id, name: 'repro' })).token;
  } finally {
    await db.close();
  }
}

async function waitForHealth(base: string) {
  for (let i = 0; i < 600; i++) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) return;
    await sleep(100);
  }
  throw new Error('server did not start');
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pdf-bomb-repro-'));
let server: ChildProcess | undefined;
try {
  const token = await seed(dataDir);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: serverRoot,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForHealth(base);
  const pid = server.pid!;

  const answer = (attachments: object[]) =>
    fetch(`${base}/v1/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': token },
      body: JSON.stringify({ message: 'how do I reset my password?', attachments }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as { needs_human?: boolean } }));

  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText('Forgot password? Use the sign-in page.', { x: 40, y: 700, size: 12, font });
  const legit = [{ mime: 'application/pdf', contentBase64: Buffer.from(await doc.save()).toString('base64'), filename: 'help.pdf' }];
  const rssIdle = rssMiB(pid);
  // A server that has read one attachment since it started (its readers are up, if it has any).
  // Retried: a server just started on a busy machine may shed load (503) for a moment.
  let warm = await answer(legit);
  for (let i = 0; i < 20 && warm.status === 503; i++) {
    await sleep(500);
    warm = await answer(legit);
  }
  const rssWarm = rssMiB(pid);

  const bombBytes = await pdfBomb(200);
  const bomb = { mime: 'application/pdf', contentBase64: bombBytes.toString('base64'), filename: 'bomb.pdf' };
  const five = Array.from({ length: 5 }, () => bomb);

  let done = false;
  let rssPeak = rssWarm;
  let healthzMax = 0;
  let probes = 0;
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
      healthzMax = Math.max(healthzMax, performance.now() - started);
      probes++;
      if (!ok) console.log('a /healthz probe failed');
      rssPeak = Math.max(rssPeak, rssMiB(pid));
      await sleep(50);
    }
  })();
  const started = performance.now();
  const calls = await Promise.all(
    [0, 1].map(async () => {
      const res = await answer(five);
      return { ...res, ms: performance.now() - started };
    }),
  );
  const elapsed = performance.now() - started;
  done = true;
  await probe;
  const rssAfter = rssMiB(pid);
  await sleep(5000);
  const rssLater = rssMiB(pid);
  // And the server still reads an ordinary PDF.
  const after = await answer(legit);

  console.log(`server: ${serverRoot}, ${os.availableParallelism()} cores`);
  console.log(`bomb: ${(bombBytes.length / 1024).toFixed(0)} KiB inflating to 200 MiB; 2 concurrent calls × 5 bombs`);
  console.log(`warm-up call with one ordinary PDF: ${warm.status}, needs_human ${warm.body.needs_human}`);
  for (const [i, c] of calls.entries()) console.log(`call ${i + 1}: ${c.status} in ${c.ms.toFixed(0)} ms, needs_human ${c.body.needs_human}`);
  console.log(`both answered after ${elapsed.toFixed(0)} ms`);
  console.log(`/healthz: slowest ${healthzMax.toFixed(0)} ms over ${probes} probes`);
  console.log(`RSS MiB: idle ${rssIdle.toFixed(0)}, after warm-up ${rssWarm.toFixed(0)}, peak ${rssPeak.toFixed(0)} (+${(rssPeak - rssWarm).toFixed(0)}), when answered ${rssAfter.toFixed(0)}, 5 s later ${rssLater.toFixed(0)} (+${(rssLater - rssWarm).toFixed(0)})`);
  console.log(`an ordinary PDF afterwards: ${after.status}, needs_human ${after.body.needs_human}`);
  if (rssPeak - rssWarm > 300) process.exitCode = 1;
} finally {
  server?.kill('SIGTERM');
  if (server && server.exitCode === null) await new Promise((resolve) => server!.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
}
