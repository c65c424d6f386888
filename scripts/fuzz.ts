/**
 * `npm run fuzz`: requests generated from both OpenAPI documents for every operation, plus
 * unknown routes, against the real app on a fresh embedded database (test/fuzz/engine.ts says
 * what is generated and what fails). Exit 1 on any failure.
 * Usage: npm run fuzz -- [--seed N] [--runs N per operation] [--slow-ms N]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { runFuzz } from '../test/fuzz/engine.js';
import { makeFixtures } from '../test/fuzz/fixtures.js';
import { EventBus } from '../src/boards/activity/event-bus.js';

const { values } = parseArgs({ options: { seed: { type: 'string' }, runs: { type: 'string' }, 'slow-ms': { type: 'string' } } });
const seed = Number(values.seed ?? Date.now() % 1_000_000);
const perOperation = Number(values.runs ?? 40);
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tb-fuzz-'));
const config = configFrom({
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_MAX: '1000000000',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
});
const app = await buildApp({ events: new EventBus(), config });
try {
  await app.ready();
  const fixtures = await makeFixtures(app);
  const t0 = performance.now();
  const result = await runFuzz({ app, fixtures, seed, perOperation, slowMs: Number(values['slow-ms'] ?? 2000) });
  const seconds = (performance.now() - t0) / 1000;
  console.log(`seed ${seed}: ${result.cases} requests in ${seconds.toFixed(1)} s, slowest ${result.slowestMs.toFixed(0)} ms`);
  console.log(`statuses: ${JSON.stringify(result.statuses)}`);
  console.log(`kinds: ${JSON.stringify(result.byKind)}`);
  if (result.failures.length) {
    console.log(`\n${result.failures.length} failures (re-run with --seed ${seed}):`);
    for (const f of result.failures.slice(0, 200)) console.log(`- ${f.case}\n    ${f.problem}`);
    process.exitCode = 1;
  } else {
    console.log('no failures');
  }
} finally {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
}
