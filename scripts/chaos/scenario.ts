import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../test/net.js';
import { type Check, checkBoard, checkTickets } from './checks.js';
import { onCleanup } from './cleanup.js';
import { Ledger, type Outcome, startLoad, type Target } from './load.js';
import { checkMail, type MailFigures } from './mail-checks.js';
import { type Mailbox, startMailbox } from './mailbox.js';
import type { PrivateCluster } from './postgres.js';
import { type Receiver, startReceiver } from './receiver.js';
import { admin, SETUP_STEP_TIMEOUT_MS, ServerProcess, type ServerErrorLine, sleep } from './server.js';

export interface PartOptions {
  clients: number;
  cycles: number;
  /** Load before each disruption, and after the last one. */
  intervalMs: number;
  /** How long PostgreSQL stays stopped. */
  pgDownMs: number;
  webhookWaitMs: number;
  /** How long mail may take to arrive after the load stopped (a killed process's claims wait for their lease). */
  mailWaitMs: number;
  /** The SMTP server's pause before it answers DATA: the longer, the more disruptions land mid-send. */
  smtpDelayMs: number;
  /** A restart must answer /healthz within this. */
  startTimeoutMs: number;
  requestTimeoutMs: number;
}

export interface Disruption {
  kind: 'kill -9' | 'PostgreSQL stop';
  at: number;
  /** kill -9: from the kill to /healthz on the restarted server; PostgreSQL: stopped for. */
  downMs: number;
  /** kill -9: spawn → /healthz (opening the data); PostgreSQL: `pg_ctl start` done → /readyz 200, no restart. */
  backMs: number | null;
  /** From the kill, or from PostgreSQL being up again, to the next acknowledged write. */
  firstAckMs: number | null;
  /** PostgreSQL stop: what /readyz answered 1 s into the outage, and how fast. */
  readyzDown?: string;
  failures: Partial<Record<Outcome, number>>;
  error?: string;
}

export interface PartResult {
  name: string;
  database: string;
  options: PartOptions;
  ledger: Ledger;
  disruptions: Disruption[];
  checks: Check[];
  firstStartMs: number;
  serverErrors: ServerErrorLine[];
  mail?: MailFigures;
  aborted?: string;
}

const EMAIL = 'chaos@example.com';
const PASSWORD = 'chaos-monkey-password';
/** Assignees' addresses: bea1@example.com … (the pool of Target.assignees). */
const assigneeEmail = (i: number) => `bea${i}@example.com`;
/** Enough for 800 assignments at ASSIGNMENTS_PER_ASSIGNEE each (a quiet run makes about 320 on PostgreSQL). */
const ASSIGNEES = 100;

/**
 * Set-up through the admin CLI (user, write key, workspace, its token, a webhook endpoint
 * subscribed to ticket.created) and the API (the assignees, created by the site admin; a board
 * with three lists and the assignees as its members: the clients assign them to cards).
 */
async function setUp(env: NodeJS.ProcessEnv, base: string, receiver: Receiver): Promise<Target> {
  await admin(env, 'user', 'create', '--email', EMAIL, '--password', PASSWORD, '--name', 'Chaos', '--admin');
  const [key, workspace] = await Promise.all([
    admin(env, 'key', 'create', '--email', EMAIL, '--name', 'chaos', '--permission', 'write'),
    admin(env, 'workspace', 'create', '--name', 'Chaos', '--owner', EMAIL),
  ]);
  const [token, hook] = await Promise.all([
    admin(env, 'workspace', 'token', '--workspace', String(workspace.id)),
    admin(env, 'webhook', 'create', '--workspace', String(workspace.id), '--url', receiver.url, '--events', 'ticket.created'),
  ]);
  receiver.setSecret(String(hook.secret));
  const post = async (route: string, body: unknown, auth: Record<string, string> = { authorization: `Bearer ${String(key.token)}` }) => {
    const res = await fetch(base + route, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(SETUP_STEP_TIMEOUT_MS) }).catch((error: Error) => {
      throw new Error(`POST ${route}: ${error.message}`);
    });
    if (res.status !== 201) throw new Error(`POST ${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: number; user?: { id: number } };
  };
  const login = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }), signal: AbortSignal.timeout(SETUP_STEP_TIMEOUT_MS) });
  if (login.status !== 200) throw new Error(`sign-in of the site admin: ${login.status} ${await login.text()}`);
  const session = { cookie: login.headers.getSetCookie()[0]!.split(';')[0]! };
  const assignees: Target['assignees'] = [];
  for (let i = 1; i <= ASSIGNEES; i += 10) {
    const batch = Array.from({ length: Math.min(10, ASSIGNEES - i + 1) }, (_, k) => assigneeEmail(i + k));
    const made = await Promise.all(batch.map((email) => post('/admin/users', { email, password: PASSWORD, name: `Bea ${email.split('@')[0]}` }, session)));
    made.forEach((m, k) => assignees.push({ id: m.user!.id, email: batch[k]! }));
  }
  const board = await post('/api/boards', { name: 'Chaos' });
  const listIds: number[] = [];
  for (const name of ['To do', 'Doing', 'Done']) listIds.push((await post(`/api/boards/${board.id}/lists`, { name })).id);
  for (let i = 0; i < assignees.length; i += 10) {
    await Promise.all(assignees.slice(i, i + 10).map((a) => post(`/api/boards/${board.id}/members`, { email: a.email, role: 'member' })));
  }
  return { base, key: String(key.token), workspaceToken: String(token.token), boardId: board.id, listIds, assignees };
}

/** A temporary directory removed at the end (or on Ctrl-C). */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: onCleanup(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true })) };
}

/**
 * One part of the run: a server (on the private cluster when `cluster` is given, else embedded
 * in a fresh DATA_DIR) under load, disrupted `cycles` times — kill -9 and restart, alternating
 * with an immediate PostgreSQL stop when there is a cluster — then the load stops and
 * everything acknowledged is checked.
 */
export async function runPart(name: string, options: PartOptions, cluster: PrivateCluster | null, log: (line: string) => void): Promise<PartResult> {
  const data = tempDir('tb-chaos-data-');
  const receiver = await startReceiver();
  const mailbox: Mailbox = await startMailbox({ delayMs: options.smtpDelayMs });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: cluster?.url ?? '',
    DATA_DIR: data.dir,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '1000000000',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '1s,1s,2s,5s,5s,10s,10s',
    // A killed process's claimed deliveries come back after its lease: twice this plus 5 s.
    WEBHOOK_TIMEOUT_MS: '2000',
    MIGRATE_ON_START: 'true',
    SMTP_URL: mailbox.url,
    MAIL_FROM: 'Taskboard <taskboard@example.com>',
    // A killed process's claimed mail comes back after its lease: 4 × this plus 10 s.
    MAIL_TIMEOUT_MS: '5000',
    MAIL_RETRY_SCHEDULE: '1s,2s,5s,10s,20s,30s,60s,60s',
    MAIL_POLL_MS: '500',
    // Notification mail within seconds, so that batches are written and sent during the disruptions.
    NOTIFY_MAIL_BATCH_SECONDS: '2',
    INVITES_PER_DAY: '1000000',
    METRICS_TOKEN: '',
    REDIS_URL: '',
    ATTACHMENTS_S3_URL: '',
  };
  const server = new ServerProcess(env, await freePort());
  const result: PartResult = {
    name,
    database: cluster ? `PostgreSQL 15, private cluster on port ${cluster.port}` : `embedded (PGlite) in ${data.dir}`,
    options,
    ledger: new Ledger(),
    disruptions: [],
    checks: [],
    firstStartMs: 0,
    serverErrors: server.errors,
  };
  try {
    result.firstStartMs = await server.start(Math.max(options.startTimeoutMs, 60_000));
    log(`${name}: server up in ${(result.firstStartMs / 1000).toFixed(1)} s on ${server.base}; setting up`);
    const target = await setUp(env, server.base, receiver);
    const load = startLoad(target, result.ledger, { clients: options.clients, timeoutMs: options.requestTimeoutMs, tag: name.slice(0, 2).toLowerCase() });
    try {
      for (let i = 0; i < options.cycles; i++) {
        await sleep(options.intervalMs);
        const d = cluster && i % 2 === 1 ? await stopPostgres(cluster, server, options) : await killServer(server, options);
        result.disruptions.push(d);
        log(`${name}: ${i + 1}/${options.cycles} ${d.kind}: ${d.error ?? `back in ${((d.backMs ?? 0) / 1000).toFixed(2)} s`}`);
        if (d.error) {
          result.aborted = `${d.kind} ${i + 1}: ${d.error}`;
          break;
        }
      }
      if (!result.aborted) await sleep(options.intervalMs);
    } finally {
      await load.stop();
    }
    for (const d of result.disruptions) {
      const first = result.ledger.firstAckAfter(d.kind === 'kill -9' ? d.at : d.at + d.downMs);
      d.firstAckMs = first === null ? null : first - (d.kind === 'kill -9' ? d.at : d.at + d.downMs);
      d.failures = result.ledger.failuresBetween(d.at, first ?? Date.now());
    }
    if (result.aborted) return result;
    log(`${name}: load stopped; checking`);
    result.checks.push(...(await checkBoard(target, result.ledger)));
    const tickets = await checkTickets(target, result.ledger, receiver, options.webhookWaitMs);
    result.checks.push(...tickets.checks);
    const mail = await checkMail(target, result.ledger, mailbox, { email: EMAIL, password: PASSWORD }, options.mailWaitMs);
    result.checks.push(...mail.checks);
    result.mail = mail.figures;
    result.checks.push(...disruptionChecks(result, cluster !== null));
    return result;
  } catch (error) {
    result.aborted = (error as Error).message;
    return result;
  } finally {
    await server.stop();
    data.remove();
  }
}

async function killServer(server: ServerProcess, options: PartOptions): Promise<Disruption> {
  const at = Date.now();
  await server.kill();
  const d: Disruption = { kind: 'kill -9', at, downMs: 0, backMs: null, firstAckMs: null, failures: {} };
  try {
    d.backMs = await server.start(options.startTimeoutMs);
  } catch (error) {
    d.error = (error as Error).message;
  }
  d.downMs = Date.now() - at;
  return d;
}

async function stopPostgres(cluster: PrivateCluster, server: ServerProcess, options: PartOptions): Promise<Disruption> {
  const at = Date.now();
  await cluster.stopImmediate();
  const d: Disruption = { kind: 'PostgreSQL stop', at, downMs: 0, backMs: null, firstAckMs: null, failures: {} };
  await sleep(Math.min(1000, options.pgDownMs));
  const t0 = performance.now();
  try {
    const res = await fetch(`${server.base}/readyz`, { signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    d.readyzDown = `${res.status} in ${Math.round(performance.now() - t0)} ms`;
  } catch (error) {
    d.readyzDown = `${(error as Error).name} after ${Math.round(performance.now() - t0)} ms`;
  }
  await sleep(Math.max(0, at + options.pgDownMs - Date.now()));
  await cluster.start();
  const up = Date.now();
  d.downMs = up - at;
  const deadline = up + 30_000;
  while (!(await server.answers('/readyz'))) {
    if (Date.now() > deadline) {
      d.error = `/readyz not 200 within 30 s after PostgreSQL came back (no restart):\n${server.output()}`;
      return d;
    }
    await sleep(20);
  }
  d.backMs = Date.now() - up;
  return d;
}

/** Checks on how each disruption went and on what the clients were answered. */
function disruptionChecks(result: PartResult, postgres: boolean): Check[] {
  const { ledger, disruptions, options } = result;
  const kills = disruptions.filter((d) => d.kind === 'kill -9');
  const stops = disruptions.filter((d) => d.kind === 'PostgreSQL stop');
  const checks: Check[] = [];
  const slowestKill = Math.max(0, ...kills.map((d) => d.backMs ?? Infinity));
  checks.push({
    name: postgres ? 'restarts after every kill -9' : 'the data dir reopens after every kill -9',
    ok: kills.every((d) => d.backMs !== null && d.backMs <= options.startTimeoutMs),
    detail: `${kills.length} kills; spawn → /healthz at most ${(slowestKill / 1000).toFixed(2)} s (limit ${options.startTimeoutMs / 1000} s)`,
  });
  if (postgres) {
    const slowest = Math.max(0, ...stops.map((d) => d.backMs ?? Infinity));
    checks.push({
      name: 'recovers from every PostgreSQL stop by itself',
      ok: stops.every((d) => d.backMs !== null),
      detail: `${stops.length} stops; /readyz 200 at most ${(slowest / 1000).toFixed(2)} s after PostgreSQL was up, no restart`,
    });
    checks.push({
      name: '/readyz says 503 while PostgreSQL is down',
      ok: stops.every((d) => d.readyzDown?.startsWith('503 ')),
      detail: stops.map((d) => d.readyzDown).join('; '),
    });
  }
  checks.push({
    name: 'writes resume after every disruption',
    ok: disruptions.every((d) => d.firstAckMs !== null),
    detail: `first 2xx at most ${(Math.max(0, ...disruptions.map((d) => d.firstAckMs ?? Infinity)) / 1000).toFixed(2)} s after the kill / after PostgreSQL was up`,
  });
  const totals = ledger.totals();
  checks.push({
    name: 'no 5xx other than 503',
    ok: ledger.serverErrors.length === 0,
    detail: ledger.serverErrors.length
      ? ledger.serverErrors.slice(0, 5).map((e) => `${e.request} → ${e.status} ${e.body}`).join('; ')
      : `503s: ${totals.s503}, slowest ${Math.round(ledger.slowest503Ms)} ms`,
  });
  checks.push({
    name: `no request unanswered after ${options.requestTimeoutMs / 1000} s`,
    ok: totals.timeout === 0,
    detail: `${totals.timeout} timeouts`,
  });
  checks.push({
    name: 'no unexpected 4xx; answers agree with requests',
    ok: ledger.unexpected4xx.length === 0 && ledger.contradictions.length === 0 && totals.s429 === 0,
    detail:
      `${ledger.unexpected4xx.length} 4xx, ${totals.s429} 429, ${ledger.contradictions.length} contradictions` +
      (ledger.unexpected4xx.length ? `: ${ledger.unexpected4xx.slice(0, 3).map((e) => `${e.request} → ${e.status} ${e.body}`).join('; ')}` : '') +
      (ledger.contradictions.length ? `: ${ledger.contradictions.slice(0, 3).join('; ')}` : ''),
  });
  return checks;
}
