import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { EventBus } from '../../src/boards/activity/event-bus.js';
import { openPostgres } from '../../src/platform/db.js';
import { TICKET_TOPICS } from '../../src/tickets/ticket-changes.js';
import { answerWorkspace } from '../answers/answer-fixtures.js';
import { loginCookie, makeBoard } from '../factories.js';
import { buildTestApp, LogCapture, type TestApp } from '../helper.js';
import { LoopbackSmtp } from '../smtp-server.js';
import { SseClient } from '../sse-client.js';

/**
 * The reply loop with two server instances on one PostgreSQL database (as two processes would be:
 * each its own pool, listener connection, event bus and widget hub). A team's public reply written
 * through A — the API, the console, the card — reaches the widget whose stream is open on B, within
 * a second, through the boards' LISTEN/NOTIFY channel; B's widget acknowledging it keeps A's mail
 * worker from sending it; a reply nobody acknowledges is mailed by A. Embedded databases are
 * single-process (one PGlite per data directory), so this runs on PostgreSQL only.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);
vi.setConfig({ hookTimeout: 300_000, testTimeout: 300_000 });

const ORIGIN = 'https://shop.example.com';
/** The acknowledgement window: short, so that a reply nobody acknowledges is mailed within the test. */
const DELAY_MS = 3000;

const smtp = new LoopbackSmtp();
let a: TestApp;
let b: FastifyInstance;
let bDb: ReturnType<typeof openPostgres>;
let bBase: string;

beforeAll(async () => {
  if (!onPostgres) return;
  await smtp.start();
  a = await buildTestApp(smtp.env({ REPLY_MAIL_DELAY_MS: String(DELAY_MS) }));
  bDb = openPostgres({ url: (a.db.pool!.options as { connectionString: string }).connectionString });
  // B sends no mail: what reaches the customer was sent by A's mail worker.
  b = await buildApp({ events: new EventBus(), config: a.config, db: bDb, logStream: new LogCapture(), docsAtStart: false, mailWorker: false });
  bBase = await b.listen({ port: 0, host: '127.0.0.1' });
  await vi.waitFor(() => expect(a.app.events.hearsAll && b.events.hearsAll).toBe(true), { timeout: 15_000 });
});
afterAll(async () => {
  if (!onPostgres) return;
  await b?.close();
  await bDb?.close();
  await a?.close();
  await smtp.stop();
});

it.runIf(onPostgres)('a reply written through A (API, console, card) reaches B\'s open widget within a second; B\'s acknowledgement holds A\'s mail back', async () => {
  const w = await answerWorkspace(a);
  const W = String(w.workspaceId);
  const wst = (await w.admin('workspace', 'token', '--workspace', W)).token as string;
  const widgetId = (await w.admin('widget', 'create', '--agent', w.agentId, '--origin', ORIGIN)).id as string;
  const { cookie } = await loginCookie(a.app, w.owner.email, w.owner.password);
  // Tickets as cards, so that the card can reply too.
  const board = await makeBoard(a.db, w.owner.id);
  const inbox = await a.db.prisma.list.create({ data: { boardId: board.id, name: 'Inbox', position: 0 } });
  const set = await a.app.inject({ method: 'PUT', url: `/agent/workspaces/${W}/tickets-board`, headers: { cookie }, payload: { boardId: board.id, listId: inbox.id } });
  expect(set.statusCode, set.body).toBe(200);

  // The customer talks to B (a load balancer sent them there) and hands off.
  const widget = (method: 'GET' | 'POST', url: string, token?: string, payload?: object) =>
    b.inject({ method, url: `/v1/widgets/${widgetId}${url}`, headers: { origin: ORIGIN, ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(payload ? { payload } : {}) });
  const visitor = (await widget('POST', '/visitors', undefined, {})).json().token as string;
  const conversationId = (await widget('POST', '/messages', visitor, { message: 'My export fails' })).json().conversationId as string;
  const email = `two-${Date.now()}@customer.example`;
  const handedOff = await widget('POST', '/handoff', visitor, { conversationId, email });
  expect(handedOff.statusCode, handedOff.body).toBe(201);
  const ticketId = handedOff.json().ticketId as number;
  const cardId = (await a.db.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId } })).cardId!;
  expect(cardId).toEqual(expect.any(Number));

  const stream = await SseClient.open(`${bBase}/v1/widgets/${widgetId}/conversations/${conversationId}/events`, { origin: ORIGIN, authorization: `Bearer ${visitor}` });
  try {
    expect(stream.status).toBe(200);
    await vi.waitFor(() => expect(b.ticketComments.watchers(ticketId)).toBe(1));
    expect(a.app.ticketComments.watchers(ticketId)).toBe(0);

    const replies = [
      { from: 'the API', write: () => a.app.inject({ method: 'POST', url: `/v1/tickets/${ticketId}/comments`, headers: { authorization: `Bearer ${wst}` }, payload: { body: 'From the API on A.' } }) },
      { from: 'the console', write: () => a.app.inject({ method: 'POST', url: `/agent/workspaces/${W}/tickets/${ticketId}/comments`, headers: { cookie }, payload: { body: 'From the console on A.' } }) },
      { from: 'the card', write: () => a.app.inject({ method: 'POST', url: `/api/cards/${cardId}/ticket/replies`, headers: { cookie }, payload: { body: 'From the card on A.' } }) },
    ];
    for (const [i, reply] of replies.entries()) {
      const written = await reply.write();
      expect(written.statusCode, `${reply.from}: ${written.body}`).toBe(201);
      const id = written.json().id as number;
      // Committed before A answered: B's widget has it within a second of that answer.
      const [event] = (await stream.waitFor(i + 1, 1000).catch(() => {
        throw new Error(`a reply from ${reply.from} did not reach B's widget within a second`);
      })).slice(i);
      expect(event).toMatchObject({ event: 'reply', id: String(id) });
      expect(JSON.parse(event!.data)).toMatchObject({ id, from: 'team', body: `From ${reply.from} on A.` });
      // The widget on B shows it and says so: the mail A recorded is not needed.
      const seen = await widget('POST', `/conversations/${conversationId}/replies/${id}/seen`, visitor);
      expect(seen.json(), `${reply.from}: ${seen.body}`).toEqual({ mailHeldBack: true });
    }

    // A new status written through A reaches B's widget too (solved: it asks for a rating).
    expect((await a.app.inject({ method: 'PATCH', url: `/v1/tickets/${ticketId}`, headers: { authorization: `Bearer ${wst}` }, payload: { status: 'solved' } })).statusCode).toBe(200);
    const [status] = (await stream.waitFor(4, 1000)).slice(3);
    expect(status).toMatchObject({ event: 'status' });
    expect(JSON.parse(status!.data)).toEqual({ status: 'solved' });

    // A reply the widget on B shows but does not acknowledge is mailed by A's worker once due.
    const unseen = await a.app.inject({ method: 'POST', url: `/v1/tickets/${ticketId}/comments`, headers: { authorization: `Bearer ${wst}` }, payload: { body: 'Not acknowledged.' } });
    expect(unseen.statusCode).toBe(201);
    await stream.waitFor(5, 1000);
    const mail = await smtp.waitFor(email, 60_000);
    expect(mail.text).toContain('> Not acknowledged.');
    // The three acknowledged replies' mail is gone (long due by now): one mail in all.
    expect(smtp.to(email)).toHaveLength(1);
    expect(await a.db.prisma.mailMessage.count({ where: { recipient: email } })).toBe(1);

    // Each reply went onto the card once, by the process that wrote it (B only showed them).
    const cardComments = () => a.db.prisma.comment.count({ where: { cardId, text: { startsWith: '_Replied to the customer:_' } } });
    await vi.waitFor(async () => expect(await cardComments()).toBe(4), { timeout: 30_000 });
    await new Promise((r) => setTimeout(r, 500));
    expect(await cardComments()).toBe(4);
  } finally {
    stream.close();
  }
});

it.runIf(onPostgres)('a solved list set through A is known to B at once: a card B moves there solves its ticket', async () => {
  const w = await answerWorkspace(a);
  const W = String(w.workspaceId);
  const wst = (await w.admin('workspace', 'token', '--workspace', W)).token as string;
  const { cookie } = await loginCookie(a.app, w.owner.email, w.owner.password);
  const board = await makeBoard(a.db, w.owner.id);
  const inbox = await a.db.prisma.list.create({ data: { boardId: board.id, name: 'Inbox', position: 0 } });
  const solved = await a.db.prisma.list.create({ data: { boardId: board.id, name: 'Solved', position: 1 } });
  const put = (payload: object) => a.app.inject({ method: 'PUT', url: `/agent/workspaces/${W}/tickets-board`, headers: { cookie }, payload });
  expect((await put({ boardId: board.id, listId: inbox.id })).statusCode).toBe(200);
  const created = await a.app.inject({ method: 'POST', url: '/v1/tickets', headers: { authorization: `Bearer ${wst}` }, payload: { subject: 'Parcel lost', requester: { email: 'ana@customer.example' } } });
  const ticketId = created.json().id as number;
  const cardId = (await a.db.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId } })).cardId!;
  const moveOnB = (listId: number) => b.inject({ method: 'POST', url: `/api/cards/${cardId}/move`, headers: { cookie }, payload: { listId } });
  // B reads which lists solve tickets (none of this workspace's yet) on its first move between lists.
  expect((await moveOnB(solved.id)).statusCode).toBe(200);
  expect((await moveOnB(inbox.id)).statusCode).toBe(200);
  await new Promise((r) => setTimeout(r, 300));
  expect((await a.db.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId } })).status).toBe('open');

  const heard = new Promise<void>((resolve) => {
    const stop = b.events.onAnnounced(TICKET_TOPICS.board, () => {
      stop();
      resolve();
    });
  });
  expect((await put({ boardId: board.id, listId: inbox.id, solvedListId: solved.id })).statusCode).toBe(200);
  await heard;
  expect((await moveOnB(solved.id)).statusCode).toBe(200);
  await vi.waitFor(async () => expect((await a.db.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId } })).status).toBe('solved'), { timeout: 30_000 });
});
