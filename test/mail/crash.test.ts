import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, seedDataDir, type ServerProcess, startServer } from '../webhooks/process-helpers.js';

/** One message as it came to the SMTP server: whether it was answered 250 (accepted) or left hanging. */
interface Arrival {
  to: string[];
  messageId: string;
  accepted: boolean;
  at: number;
}

/**
 * An SMTP server whose `answer` decides, per message, to accept it (250) or to hold the answer
 * forever: the sender is then mid-send, with the whole message sent, when the test kills it.
 */
async function startHoldingSmtp(answer: (index: number) => 'accept' | 'hold') {
  const arrivals: Arrival[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const index = arrivals.length;
        const accepted = answer(index) === 'accept';
        arrivals.push({ to: session.envelope.rcptTo.map((r) => r.address), messageId: /^Message-ID: (.*)$/im.exec(raw)?.[1]?.trim() ?? '', accepted, at: Date.now() });
        if (accepted) callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    arrivals,
    async waitFor(n: number, timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      while (arrivals.length < n) {
        if (Date.now() > deadline) throw new Error(`SMTP server: ${arrivals.length} of ${n} messages after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return arrivals;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The "kill -9 during a send loses nothing" on the real server process (embedded
 * database): killed while the SMTP server holds its answer to a mail's DATA, the next start sends
 * the mail again once the killed process's claim has run out, as the same message (Message-ID),
 * and records it sent after one attempt (the killed one left nothing).
 */
describe('the server process killed -9 mid-send', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let server: ServerProcess | undefined;
  let smtp: Awaited<ReturnType<typeof startHoldingSmtp>>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tb-mail-crash-'));
    smtp = await startHoldingSmtp((index) => (index === 0 ? 'hold' : 'accept'));
    env = {
      ...process.env,
      DATABASE_URL: '',
      TEST_DATABASE_URL: '',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Taskboard <taskboard@example.test>',
      // The held answer must outlast the time from the message's arrival to the kill (seconds on a loaded CI box):
      // nodemailer would otherwise give up on it first. The killed claim comes back after 4 × this + 10 s (34 s).
      MAIL_TIMEOUT_MS: '6000',
      MAIL_POLL_MS: '200',
      RATE_LIMIT_MAX: '1000000',
    };
    await seedDataDir(dataDir);
    server = await startServer(env);
  }, 150_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await smtp?.close();
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('sends the mail again after the restart, as the same message, once', { timeout: 240_000 }, async () => {
    const cli = async (...args: string[]) => {
      const res = await admin(env, ...args);
      expect(res, `admin ${args.join(' ')}`).toMatchObject({ code: 0 });
      return res.json;
    };
    await cli('user', 'create', '--email', 'ada@example.test', '--password', 'correct horse battery', '--admin');
    const key = (await cli('key', 'create', '--email', 'ada@example.test', '--name', 'crash', '--permission', 'write')).token as string;
    const post = async (route: string, body: unknown) => {
      const res = await fetch(server!.base + route, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    const board = await post('/api/boards', { name: 'Crash' });
    expect(board.status).toBe(201);
    const invited = await post(`/api/boards/${String(board.json.id)}/members`, { email: 'bea@example.test', role: 'member' });
    expect(invited).toMatchObject({ status: 202, json: { invitation: { mailed: true } } });

    // The whole message is at the SMTP server, which holds its answer: kill the sender now.
    const [held] = await smtp.waitFor(1, 60_000);
    expect(held).toMatchObject({ to: ['bea@example.test'], accepted: false });
    server!.child.kill('SIGKILL');
    expect((await server!.exited).code).toBeNull();
    const killedAt = Date.now();

    server = await startServer(env);
    const [, again] = await smtp.waitFor(2, 120_000);
    expect(again).toMatchObject({ to: ['bea@example.test'], accepted: true, messageId: held!.messageId });
    expect(held!.messageId).toMatch(/^<[^<>@\s]+@[^<>\s]+>$/);
    // Not before the killed process's claim ran out: no two processes ever hold one mail.
    expect(again!.at - killedAt).toBeGreaterThanOrEqual(15_000);

    // Recorded as sent after one attempt (the killed one wrote nothing), and never sent a third time.
    const login = await fetch(`${server.base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'ada@example.test', password: 'correct horse battery' }) });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    let log: { recipient: string; status: string; attempts: number }[] = [];
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      log = ((await (await fetch(`${server.base}/admin/mail`, { headers: { cookie } })).json()) as { mail: typeof log }).mail;
      if (log.every((m) => m.status !== 'pending')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(log).toEqual([expect.objectContaining({ recipient: 'bea@example.test', status: 'sent', attempts: 1 })]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.arrivals).toHaveLength(2);
  });
});
