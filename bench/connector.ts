/**
 * The cost of a tool call over /mcp against the same REST call, in one run: the same server,
 * database, user and card, over real HTTP on loopback (one keep-alive connection, requests one
 * at a time, REST and MCP interleaved). The MCP token is obtained through the real OAuth flow
 * (registration, code + PKCE, consent). Also the cost of building the per-request MCP server.
 * Usage: npx tsx bench/connector.ts [iterations]   (DATABASE_URL set: PostgreSQL, else embedded)
 */
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { createApiKey } from '../src/accounts/keys/create-api-key.js';
import { createUser } from '../src/accounts/users/create-user.js';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { buildMcpServer, CONNECTOR_TOOLS } from '../src/connector/mcp-server.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { openPGliteInstance, openPostgres } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { EventBus } from '../src/boards/activity/event-bus.js';

const iterations = Number(process.argv[2] ?? 1000);
const url = process.env.DATABASE_URL;
const db = url ? openPostgres({ url }) : openPGliteInstance(new PGlite());
await migrate(db);
const port = await new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const p = (s.address() as net.AddressInfo).port;
    s.close(() => resolve(p));
  });
});
const base = `http://127.0.0.1:${port}`;
const config = configFrom({ LOG_LEVEL: 'silent', PUBLIC_BASE_URL: base, RATE_LIMIT_MAX: '1000000000', ...(url ? { DATABASE_URL: url } : {}) });
const app = await buildApp({ events: new EventBus(), config, db });
await app.listen({ port, host: '127.0.0.1' });

// A user, a board with two lists and 20 cards, a personal key for REST.
const password = 'benchmark-pass';
const user = await createUser({ db: db.prisma, email: `bench-${Date.now()}@example.com`, password });
const { token: apiKey } = await createApiKey({ db: db.prisma, userId: user.id, name: 'bench', permission: 'write', expiresAt: null });
const rest = (method: string, path: string, body?: unknown) =>
  fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
const board = (await (await rest('POST', '/api/boards', { name: 'Bench' })).json()) as { id: number };
const lists: { id: number }[] = [];
for (const name of ['A', 'B']) lists.push((await (await rest('POST', `/api/boards/${board.id}/lists`, { name })).json()) as { id: number });
let cardId = 0;
for (let i = 0; i < 20; i++) cardId = ((await (await rest('POST', `/api/lists/${lists[0]!.id}/cards`, { title: `Card ${i}`, description: 'x'.repeat(200) })).json()) as { id: number }).id;

// The OAuth flow, as an assistant and a person in a browser run it.
const cookies = new Map<string, string>();
async function browse(target: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
  const res = await fetch(new URL(target, base), { ...init, headers, redirect: 'manual' });
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair!.indexOf('=');
    cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
  }
  return res;
}
await browse('/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password }) });
const redirectUri = 'http://127.0.0.1:9/callback';
const registration = (await (
  await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Bench', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none', scope: 'read write' }),
  })
).json()) as { client_id: string };
const verifier = randomBytes(32).toString('base64url');
const authorize = new URL('/oauth/authorize', base);
authorize.search = new URLSearchParams({
  response_type: 'code', client_id: registration.client_id, redirect_uri: redirectUri, scope: 'read write', resource: `${base}/mcp`,
  code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
}).toString();
const consent = (await browse(authorize.href)).headers.get('location')!;
await browse(consent);
const resume = (await browse(consent, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base }, body: 'decision=approve' })).headers.get('location')!;
const code = new URL((await browse(resume)).headers.get('location')!).searchParams.get('code')!;
const tokens = (await (
  await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: registration.client_id, redirect_uri: redirectUri, resource: `${base}/mcp` }),
  })
).json()) as { access_token: string };

let rpcId = 0;
async function mcp(method: string, params: object) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  const body = (await res.json()) as { result?: { isError?: boolean }; error?: unknown };
  if (res.status !== 200 || body.error || body.result?.isError) throw new Error(`mcp ${method} failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}
const tool = (name: string, args: object) => mcp('tools/call', { name, arguments: args });
async function ok(res: Response) {
  if (res.status >= 300) throw new Error(`REST failed: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const ms = (x: number) => x.toFixed(2);

const pairs: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
  ['get a card', () => rest('GET', `/api/cards/${cardId}`).then(ok), () => tool('get_card', { cardId })],
  ['get the board (2 lists, 20 cards)', () => rest('GET', `/api/boards/${board.id}`).then(ok), () => tool('get_board', { boardId: board.id })],
  ['list boards', () => rest('GET', '/api/boards').then(ok), () => tool('list_boards', {})],
];
let flip = 0;
const movePair: [string, () => Promise<unknown>, () => Promise<unknown>] = [
  'move a card (between two lists)',
  () => rest('POST', `/api/cards/${cardId}/move`, { listId: lists[flip++ % 2]!.id, position: 0 }).then(ok),
  () => tool('move_card', { cardId, listId: lists[flip++ % 2]!.id, position: 0 }),
];
pairs.push(movePair);

console.log(`database: ${url ? 'PostgreSQL' : 'embedded PGlite'}; ${iterations} calls of each, REST and MCP interleaved, over HTTP on loopback`);
console.log('| call | REST p50 | REST p99 | MCP p50 | MCP p99 | MCP − REST (p50) |');
console.log('|---|---|---|---|---|---|');
for (const [name, viaRest, viaMcp] of pairs) {
  for (let i = 0; i < Math.min(200, iterations); i++) {
    await viaRest();
    await viaMcp();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < iterations; i++) {
    let t0 = performance.now();
    await viaRest();
    a.push(performance.now() - t0);
    t0 = performance.now();
    await viaMcp();
    b.push(performance.now() - t0);
  }
  console.log(`| ${name} | ${ms(pct(a, 0.5))} ms | ${ms(pct(a, 0.99))} ms | ${ms(pct(b, 0.5))} ms | ${ms(pct(b, 0.99))} ms | +${ms(pct(b, 0.5) - pct(a, 0.5))} ms |`);
}

// What building the per-request MCP server (every tool, one resource template) and its transport costs.
const build: number[] = [];
const ctx = {
  db: db.prisma, events: app.events, generator: null as never, semanticRanking: null, log: app.log,
  actor: { userId: user.id, name: user.name, email: user.email, siteAdmin: false, via: 'session' as const, keyId: null, sessionId: null, permission: 'write' as const, boardIds: null },
  credential: { connectionId: 0, clientId: '', clientName: 'bench', scope: 'read write', userId: user.id, name: user.name, email: user.email, siteAdmin: false },
  effects: app.effects,
};
for (let i = 0; i < iterations; i++) {
  const t0 = performance.now();
  const server = buildMcpServer(ctx);
  await server.connect(new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true }));
  build.push(performance.now() - t0);
  await server.close();
}
const listed: number[] = [];
for (let i = 0; i < Math.min(iterations, 300); i++) {
  const t0 = performance.now();
  await mcp('tools/list', {});
  listed.push(performance.now() - t0);
}
console.log(`building the per-request MCP server and transport: p50 ${ms(pct(build, 0.5))} ms, p99 ${ms(pct(build, 0.99))} ms`);
console.log(`tools/list (${CONNECTOR_TOOLS.length} tools with JSON Schemas): p50 ${ms(pct(listed, 0.5))} ms, p99 ${ms(pct(listed, 0.99))} ms`);
await app.close();
await db.close();
