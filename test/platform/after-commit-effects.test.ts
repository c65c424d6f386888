import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AfterCommit, type ChangeKind, EFFECTS, type EffectRunners } from '../../src/platform/after-commit.js';
import { BOARD_TEST_ENV, makeTeam } from '../board-factories.js';
import { loginCookie, makeBoard, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { useLoopbackSmtp } from '../smtp-server.js';
import { startReceiver } from '../webhook-receiver.js';
import { webhookWorkspace } from '../webhooks/webhook-fixtures.js';

/**
 * #48 item 2: what follows a commit has one owner, platform/after-commit.ts. Its table says what
 * each kind of change sets off; every change reports to it; no route or domain file wakes a
 * worker, purges files, feeds a stream (a board's or a widget's) or runs a follow-up (a ticket's
 * card) itself; and the owner's inputs are required (no optional outbox, mailer, hub or bus, no bus
 * made up on the spot).
 */

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Every TypeScript file under src/ (generated code and the browser's client left out), with its comments removed. */
function sources(): { file: string; code: string }[] {
  const out: { file: string; code: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(SRC, full).split(path.sep).join('/');
      if (entry.isDirectory()) {
        if (rel === 'generated' || rel === 'web/client') continue;
        walk(full);
      } else if (entry.name.endsWith('.ts')) {
        const code = readFileSync(full, 'utf8')
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
        out.push({ file: rel, code });
      }
    }
  };
  walk(SRC);
  return out;
}

/** The files of src/ that match `pattern`, except the `allowed` ones. */
const offenders = (pattern: RegExp, allowed: string[]) =>
  sources()
    .filter(({ file, code }) => !allowed.includes(file) && pattern.test(code))
    .map(({ file }) => file)
    .sort();

describe('the table', () => {
  it('maps each kind of change to its effects, in the order they run', () => {
    expect(EFFECTS).toEqual({
      'board.activity': ['cache', 'stream', 'notifierWake', 'ticketFollowsCard'],
      'ticket.created': ['cardFollowsTicket'],
      'ticket.updated': ['stream', 'cardFollowsTicket'],
      'ticket.commented': ['stream', 'cardFollowsTicket'],
      'tickets.board': ['cache'],
      'user.changed': ['cache'],
      'webhook.queued': ['webhookWake'],
      'mail.queued': ['mailWake'],
      'file.deleted': ['filePurge'],
    });
  });

  it('has a row for every kind the code reports, and every row is reported somewhere', () => {
    const reported = new Set<string>();
    for (const { code } of sources()) for (const m of code.matchAll(/committed\(\{\s*kind:\s*'([a-z.]+)'/g)) reported.add(m[1]!);
    expect([...reported].sort()).toEqual(Object.keys(EFFECTS).sort());
  });

  it('runs every effect of a change in order; a runner that throws is logged and the others still run', () => {
    const ran: string[] = [];
    const warnings: object[] = [];
    const runner = (name: string) => () => void ran.push(name);
    const runners: EffectRunners = {
      cache: runner('cache'),
      stream: () => {
        ran.push('stream');
        throw new Error('a stream that fails');
      },
      notifierWake: runner('notifierWake'),
      ticketFollowsCard: runner('ticketFollowsCard'),
      cardFollowsTicket: runner('cardFollowsTicket'),
      webhookWake: runner('webhookWake'),
      mailWake: runner('mailWake'),
      filePurge: runner('filePurge'),
    };
    const owner = new AfterCommit(runners, { warn: (o) => void warnings.push(o) });
    const activity = { id: 1, boardId: 1, type: 'list.created', data: { listId: 1, name: 'A' } } as never;
    owner.committed({ kind: 'board.activity', activity });
    owner.committed({ kind: 'mail.queued' });
    expect(ran).toEqual(['cache', 'stream', 'notifierWake', 'ticketFollowsCard', 'mailWake']);
    expect(warnings).toEqual([expect.objectContaining({ change: 'board.activity', effect: 'stream' })]);
    const kinds: ChangeKind[] = ['user.changed', 'webhook.queued', 'file.deleted'];
    ran.length = 0;
    owner.committed({ kind: 'user.changed', userId: 1 });
    owner.committed({ kind: 'webhook.queued' });
    owner.committed({ kind: 'file.deleted' });
    expect(ran).toEqual(kinds.flatMap((kind) => [...EFFECTS[kind]]));
  });

  it('settles once a runner\'s promise has (a new ticket waits for its card); a rejected one is logged, never the change\'s failure', async () => {
    const warnings: object[] = [];
    let cardMade = false;
    let fail = false;
    const none = () => {};
    const owner = new AfterCommit(
      {
        cache: none, stream: none, notifierWake: none, ticketFollowsCard: none, webhookWake: none, mailWake: none, filePurge: none,
        cardFollowsTicket: async () => {
          await new Promise((r) => setTimeout(r, 20));
          if (fail) throw new Error('no card');
          cardMade = true;
        },
      },
      { warn: (o) => void warnings.push(o) },
    );
    const ticket = { id: 1 } as never;
    await owner.committed({ kind: 'ticket.created', ticket });
    expect(cardMade).toBe(true);
    fail = true;
    await expect(owner.committed({ kind: 'ticket.created', ticket })).resolves.toBeUndefined();
    expect(warnings).toEqual([expect.objectContaining({ change: 'ticket.created', effect: 'cardFollowsTicket' })]);
  });
});

describe('no one else does what follows a commit', () => {
  it('wakes the webhook dispatcher, the mail worker or the notifier only from their runners (and the workers themselves)', () => {
    expect(
      offenders(/\.wake\(\)/, [
        'app.ts', // the runners: webhookWake, mailWake
        'notifications/plugin.ts', // the 'notifierWake' runner
        'platform/outbox-waker.ts',
        'webhooks/dispatcher.ts',
        'mail/worker.ts',
        'notifications/notify/notifier.ts',
      ]),
    ).toEqual([]);
    // The mail worker and the webhook dispatcher, by whatever name they are held, only from app.ts's runners.
    expect(offenders(/\b(mail|webhooks|outbox)\??\.wake\(\)/, ['app.ts'])).toEqual([]);
  });

  it('purges deleted files only from the filePurge runner (and the store\'s own timers)', () => {
    expect(offenders(/purgeDeleted\(\)/, ['app.ts', 'boards/attachments/attachment-store.ts'])).toEqual([]);
  });

  it('drops cached boards only from the cache runner, and hangs nothing off a committed-activity hook', () => {
    expect(offenders(/\.forgetHere\(/, ['boards/activity/change-board.ts'])).toEqual([]);
    // The lists that solve tickets: from the server's cache runner, and from another process's announcement.
    expect(offenders(/\.forgetSolvedLists\(/, ['app.ts', 'tickets/cards/plugin.ts'])).toEqual([]);
    expect(offenders(/\.publish\(\s*activity|onCommitted\(/, [])).toEqual([]);
  });

  it('feeds the widgets\' streams only from the tickets\' stream runner and from what other processes announced', () => {
    // The 'stream' runner and the announcements' receiver are both in the tickets' comments plugin.
    expect(offenders(/\.(streamComment|streamStatus)\(/, ['tickets/comments/plugin.ts'])).toEqual([]);
    // Nor by whatever name the hub is held, nor by whatever its sending is called.
    expect(offenders(/\b(hub|ticketComments)\??\.(publish|stream|emit)\w*\(/, ['tickets/comments/plugin.ts'])).toEqual([]);
    // What another process must show is announced in the change's transaction, on the boards' one channel.
    expect(offenders(/\.announceInTransaction\(/, ['tickets/comments/create-ticket-comment.ts', 'tickets/update-ticket.ts', 'tickets/cards/set-tickets-board.ts'])).toEqual([]);
    expect(offenders(/pg_notify/, ['boards/activity/change-board.ts', 'boards/activity/event-bus.ts'])).toEqual([]);
  });

  it('makes a ticket\'s card follow it, and a card\'s ticket follow the card, only from their runners', () => {
    expect(offenders(/\.(ticketCreated|ticketChanged|commentPublished|cardMoved)\(/, ['tickets/cards/plugin.ts'])).toEqual([]);
    // One TicketCards, the server's: no caller makes its own follow-ups on the side.
    expect(offenders(/new TicketCards\(/, ['tickets/cards/plugin.ts'])).toEqual([]);
  });

  it('takes its inputs required: no optional outbox, mailer, hub, bus or owner, no event bus made up where one is missing', () => {
    expect(offenders(/\boutbox\?:/, [])).toEqual([]);
    expect(offenders(/\b(mailer|hub|effects)\?:|\bevents\?:\s*EventBus/, [])).toEqual([]);
    expect(offenders(/\?\?\s*new EventBus\(/, [])).toEqual([]);
    // The two processes that own a bus build it: the server (src/server.ts) and the admin CLI of its own.
    expect(offenders(/new EventBus\(/, ['server.ts', 'cli/main.ts'])).toEqual([]);
  });

  it('keeps the transaction type on the ground', () => {
    expect(offenders(/export type Tx\b/, ['platform/db.ts'])).toEqual([]);
  });
});

describe('through real HTTP, the effects still follow at once', { timeout: 120_000 }, () => {
  const smtp = useLoopbackSmtp();
  // Polls (the longest allowed) longer than any wait below: what arrives was sent because the commit woke its worker.
  const t = useTestApp(() =>
    smtp.env({ ...BOARD_TEST_ENV, MAIL_POLL_MS: '60000', WEBHOOK_POLL_MS: '60000', WEBHOOK_ALLOW_PRIVATE: 'true', PUBLIC_BASE_URL: 'https://tb.example.test' }),
  );

  it('POST /v1/tickets: ticket.created reaches the endpoint long before the dispatcher\'s poll', async () => {
    const r = await startReceiver();
    try {
      const w = await webhookWorkspace(t, r.url);
      const ticket = await w.createTicket('Effects after a commit');
      const [got] = await r.waitFor(1, 30_000);
      expect(r.verify(got!, w.endpoint.secret)).toMatchObject({ type: 'ticket.created', data: { id: ticket.id } });
    } finally {
      await r.close();
    }
  });

  it('an invitation\'s mail goes out long before the mail worker\'s poll', async () => {
    const admin = await makeUser(t.db);
    const board = await makeBoard(t.db, admin.id);
    const cookie = await loginCookie(t.app, admin.email, admin.password);
    const email = `effects-${board.id}@example.test`;
    const invited = await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/members`, headers: cookie, payload: { email, role: 'member' } });
    expect(invited.statusCode, invited.body).toBe(202);
    expect(invited.json().invitation.mailed).toBe(true);
    await smtp.waitFor(email, 30_000);
  });

  it('a deleted attachment\'s file goes long before the store\'s next purge', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const boundary = `effects${Date.now()}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\n`),
      Buffer.from('what follows a commit'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/cards/${team.cards[0]!.id}/attachments`,
      headers: { ...team.keys.admin.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const row = await t.db.prisma.attachment.findUniqueOrThrow({ where: { id: uploaded.json().id } });
    const file = path.join(t.config.dataDir, 'attachments', 'objects', row.storageKey!.slice(0, 2), row.storageKey!);
    expect(existsSync(file)).toBe(true);
    expect((await team.as.admin.del(`/api/attachments/${row.id}`)).statusCode).toBe(204);
    const deadline = Date.now() + 30_000;
    while (existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(file)).toBe(false);
  });
});
