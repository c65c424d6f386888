/**
 * `npm run chaos`: crash safety under load. Part 1 runs the server on a private PostgreSQL cluster
 * (initdb in a temporary directory, never the machine's own) and alternates `kill -9` of the
 * server (restarted at once) with `pg_ctl stop -m immediate` of PostgreSQL (started again a few
 * seconds later; the server must recover by itself). Part 2 runs it on the embedded database and
 * kills it `--embedded-cycles` times. Throughout, clients create cards, move them between and
 * within lists, create tickets (whose ticket.created webhooks go to a receiver here), invite new
 * addresses to the board and assign a second member to cards (the invitations and the
 * notification batches are mailed to a loopback SMTP server here that takes `--smtp-delay` to
 * answer each mail, so disruptions land mid-send). Then: every acknowledged write is present,
 * every list's positions are 0..n-1, every ticket's webhook arrived, and every acknowledged
 * invitation and assignment was mailed, once as a message (resent copies keep its Message-ID).
 * Prints the results as Markdown and exits 1 when a check fails.
 * `--part freeze` (not part of `all`) instead freezes PostgreSQL without stopping it: the backends
 * of a database of its own on `--freeze-url`'s server are SIGSTOPped for `--freeze` seconds under
 * load, and every request meanwhile must get 2xx or its 503 within 2.5 s (scripts/chaos/freeze.ts).
 *
 * Usage: npm run chaos -- [--part all|pg|embedded|freeze] [--clients 8] [--pg-cycles 6]
 *   [--embedded-cycles 8] [--interval 6] [--pg-down 4] [--webhook-wait 60] [--mail-wait 90]
 *   [--smtp-delay 0.4] [--start-timeout 20] [--freeze 10] [--freeze-load 10]
 *   [--freeze-url postgresql://postgres@127.0.0.1:5432/test]   (times in seconds)
 */
import { parseArgs } from 'node:util';
import { installCleanupHandlers } from './chaos/cleanup.js';
import { freezeReport, runFreeze } from './chaos/freeze.js';
import { startPrivateCluster } from './chaos/postgres.js';
import { partPassed, partReport, summary } from './chaos/report.js';
import { type PartOptions, type PartResult, runPart } from './chaos/scenario.js';

const { values } = parseArgs({
  options: {
    part: { type: 'string', default: 'all' },
    clients: { type: 'string', default: '8' },
    'pg-cycles': { type: 'string', default: '6' },
    'embedded-cycles': { type: 'string', default: '8' },
    interval: { type: 'string', default: '6' },
    'pg-down': { type: 'string', default: '4' },
    'webhook-wait': { type: 'string', default: '60' },
    'mail-wait': { type: 'string', default: '90' },
    'smtp-delay': { type: 'string', default: '0.4' },
    'start-timeout': { type: 'string', default: '20' },
    'request-timeout': { type: 'string', default: '15' },
    freeze: { type: 'string', default: '10' },
    'freeze-load': { type: 'string', default: '10' },
    'freeze-url': { type: 'string', default: process.env.CHAOS_FREEZE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});

function number(name: keyof typeof values, min: number): number {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n < min) {
    console.error(`error: --${name} must be a number ≥ ${min} (got "${values[name]}")`);
    process.exit(2);
  }
  return n;
}

const part = values.part;
if (part !== 'all' && part !== 'pg' && part !== 'embedded' && part !== 'freeze') {
  console.error(`error: --part must be all, pg, embedded or freeze (got "${part}")`);
  process.exit(2);
}
const base: Omit<PartOptions, 'cycles'> = {
  clients: number('clients', 1),
  intervalMs: number('interval', 0.5) * 1000,
  pgDownMs: number('pg-down', 0.5) * 1000,
  webhookWaitMs: number('webhook-wait', 1) * 1000,
  mailWaitMs: number('mail-wait', 1) * 1000,
  smtpDelayMs: number('smtp-delay', 0) * 1000,
  startTimeoutMs: number('start-timeout', 1) * 1000,
  requestTimeoutMs: number('request-timeout', 1) * 1000,
};

installCleanupHandlers();
const started = Date.now();
const log = (line: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`);
const results: PartResult[] = [];

if (part === 'freeze') {
  const result = await runFreeze(
    {
      serverUrl: values['freeze-url']!,
      freezeMs: number('freeze', 1) * 1000,
      loadMs: number('freeze-load', 1) * 1000,
      startTimeoutMs: base.startTimeoutMs,
      requestTimeoutMs: base.requestTimeoutMs,
    },
    log,
  );
  console.log(`# Chaos run, ${new Date(started).toISOString()} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  console.log(freezeReport(result));
  const passed = result.checks.every((c) => c.ok);
  console.log(`\n${passed ? 'every check passed' : 'SOME CHECKS FAILED'}`);
  process.exit(passed ? 0 : 1);
}

if (part !== 'embedded') {
  log('PostgreSQL: initdb and start a private cluster');
  const cluster = await startPrivateCluster();
  try {
    results.push(await runPart('PostgreSQL', { ...base, cycles: number('pg-cycles', 1) }, cluster, log));
  } finally {
    cluster.destroy();
  }
}
if (part !== 'pg') results.push(await runPart('embedded', { ...base, cycles: number('embedded-cycles', 1) }, null, log));

console.log(`# Chaos run, ${new Date(started).toISOString()} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
console.log(summary(results));
for (const r of results) console.log(`\n${partReport(r)}`);
const ok = results.every(partPassed);
console.log(`\n${ok ? 'every check passed' : 'SOME CHECKS FAILED'}`);
// Open keep-alive sockets and the receivers would keep the process alive: exit, which cleans up.
process.exit(ok ? 0 : 1);
