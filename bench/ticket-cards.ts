/**
 * Tickets as cards: a card moved to the solved list of a ticket board, until the ticket is solved
 * and its `ticket.updated` webhook has arrived at a loopback receiver (the follow-up runs after the
 * move's commit: boards' committed-activity hook → updateTicket → the webhook outbox, woken at
 * once). One move at a time, each waiting for its webhook; the move's own response time beside it,
 * and, interleaved in the same run, the move of an ordinary card on a board without tickets (the floor).
 * Usage: npx tsx bench/ticket-cards.ts [moves] [pg]   (pg: a fresh database on BENCH_DATABASE_URL's server, else embedded)
 */
import http from 'node:http';
import net from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { createApiKey } from '../src/accounts/keys/create-api-key.js';
import { createUser } from '../src/accounts/users/create-user.js';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { openPGliteInstance, openPostgres } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { setTicketsBoard } from '../src/tickets/cards/set-tickets-board.js';
import { regenerateWorkspaceToken } from '../src/tickets/regenerate-workspace-token.js';
import { createEndpoint } from '../src/webhooks/create-endpoint.js';
import { createWorkspace } from '../src/workspaces/create-workspace.js';
import { withBenchDatabase } from './bench-database.js';
import { EventBus } from '../src/boards/activity/event-bus.js';

const moves = Number(process.argv[2] ?? 200);
const warmup = Math.min(20, Math.floor(moves / 5));
const onPostgres = process.argv[3] === 'pg';
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

// The receiver: resolves the wait of the ticket whose ticket.updated (status solved) arrived.
const waiting = new Map<number, (at: number) => void>();
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = performance.now();
    res.writeHead(204).end();
    const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; data: { id: number; status: string } };
    if (event.type === 'ticket.updated' && event.data.status === 'solved') waiting.get(event.data.id)?.(at);
  });
});
const receiverPort = await freePort();
await new Promise<void>((resolve) => receiver.listen(receiverPort, '127.0.0.1', resolve));

async function run(url: string | undefined) {
  const db = url ? openPostgres({ url }) : openPGliteInstance(new PGlite());
  await migrate(db);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = configFrom({ LOG_LEVEL: 'silent', PUBLIC_BASE_URL: base, RATE_LIMIT_MAX: '1000000000', WEBHOOK_ALLOW_PRIVATE: 'true', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', ...(url ? { DATABASE_URL: url } : {}) });
  const app = await buildApp({ events: new EventBus(), config, db });
  await app.listen({ port, host: '127.0.0.1' });

  try {
    const user = await createUser({ db: db.prisma, email: `bench-${Date.now()}@example.com`, password: 'benchmark-pass' });
    const { token: apiKey } = await createApiKey({ db: db.prisma, userId: user.id, name: 'bench', permission: 'write', expiresAt: null });
    const rest = async (method: string, path: string, body?: unknown, auth = `Bearer ${apiKey}`) => {
      const res = await fetch(base + path, { method, headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<{ id: number }>;
    };
    const workspace = await createWorkspace({ db: db.prisma, name: 'Bench', ownerId: user.id });
    const { token: wst } = await regenerateWorkspaceToken({ db: db.prisma, workspaceId: workspace.id });
    await createEndpoint({ db: db.prisma, owner: { workspaceId: workspace.id }, input: { url: `http://127.0.0.1:${receiverPort}/hooks`, events: ['ticket.updated'] }, allowPrivate: true });
    const board = await rest('POST', '/api/boards', { name: 'Support desk' });
    const inbox = await rest('POST', `/api/boards/${board.id}/lists`, { name: 'Inbox' });
    const solved = await rest('POST', `/api/boards/${board.id}/lists`, { name: 'Solved' });
    await setTicketsBoard({ db: db.prisma, events: app.events, effects: app.effects, workspaceId: workspace.id, actor: null, target: { boardId: board.id, listId: inbox.id, solvedListId: solved.id } });

    const tickets: { id: number; cardId: number }[] = [];
    for (let i = 0; i < moves; i++) {
      const ticket = await rest('POST', '/v1/tickets', { subject: `Ticket ${i}`, requester: { email: 'bench@customer.example' } }, `Bearer ${wst}`);
      const row = await db.prisma.ticket.findUniqueOrThrow({ where: { id: ticket.id }, select: { cardId: true } });
      if (!row.cardId) throw new Error(`ticket ${ticket.id} got no card`);
      tickets.push({ id: ticket.id, cardId: row.cardId });
    }

    // The floor: ordinary cards on a board without tickets, moved between two lists, interleaved with the ticket moves.
    const plainBoard = await rest('POST', '/api/boards', { name: 'Plain' });
    const plainLists = [await rest('POST', `/api/boards/${plainBoard.id}/lists`, { name: 'A' }), await rest('POST', `/api/boards/${plainBoard.id}/lists`, { name: 'B' })];
    const plainCards: number[] = [];
    for (let i = 0; i < moves; i++) plainCards.push((await rest('POST', `/api/lists/${plainLists[0]!.id}/cards`, { title: `Card ${i}` })).id);

    const reach: number[] = [];
    const response: number[] = [];
    const floor: number[] = [];
    for (const [i, t] of tickets.entries()) {
      const plainStart = performance.now();
      await rest('POST', `/api/cards/${plainCards[i]!}/move`, { listId: plainLists[1]!.id });
      if (i >= warmup) floor.push(performance.now() - plainStart);
      const arrived = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`ticket ${t.id}: no webhook within 10 s`)), 10_000);
        waiting.set(t.id, (at) => (clearTimeout(timer), resolve(at)));
      });
      const start = performance.now();
      await rest('POST', `/api/cards/${t.cardId}/move`, { listId: solved.id });
      const answered = performance.now();
      const at = await arrived;
      if (i >= warmup) {
        reach.push(at - start);
        response.push(answered - start);
      }
    }
    reach.sort((a, b) => a - b);
    response.sort((a, b) => a - b);
    floor.sort((a, b) => a - b);
    const f = (n: number) => n.toFixed(1);
    console.log(`\nTickets as cards on ${url ? 'PostgreSQL' : 'embedded PGlite'}: ${reach.length} card moves to the solved list (after ${warmup} warm-up), one at a time, server in-process, receiver on loopback.\n`);
    console.log('| measure | p50 | p95 | p99 | max |');
    console.log('|---|---|---|---|---|');
    console.log(`| card move → ticket solved → its ticket.updated webhook arrived | ${f(percentile(reach, 50))} ms | ${f(percentile(reach, 95))} ms | ${f(percentile(reach, 99))} ms | ${f(reach.at(-1)!)} ms |`);
    console.log(`| the move's own response (POST /api/cards/{id}/move) | ${f(percentile(response, 50))} ms | ${f(percentile(response, 95))} ms | ${f(percentile(response, 99))} ms | ${f(response.at(-1)!)} ms |`);
    console.log(`| floor: an ordinary card's move on a board without tickets | ${f(percentile(floor, 50))} ms | ${f(percentile(floor, 95))} ms | ${f(percentile(floor, 99))} ms | ${f(floor.at(-1)!)} ms |`);
  } finally {
    await app.close();
    await db.close();
  }
}

try {
  if (onPostgres) await withBenchDatabase('ticket-cards', run);
  else await run(undefined);
} finally {
  receiver.close();
}
