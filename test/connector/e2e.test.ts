import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '../../src/answers/agents/create-agent.js';
import { importArticles } from '../../src/answers/knowledge/upsert-article.js';
import { setUserStatus } from '../../src/accounts/users/set-user-status.js';
import { afterUserChange } from '../../src/boards/activity/change-board.js';
import { createEndpoint } from '../../src/webhooks/create-endpoint.js';
import { client as apiClient, makeCards, makeList } from '../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { SseClient } from '../sse-client.js';
import { startReceiver, type Receiver } from '../webhook-receiver.js';
import { makeWorkspace } from '../workspace-factories.js';
import type { Browser as Chromium } from 'playwright-core';
import { launchBrowser } from '../web/browser.js';
import { Browser, call, ChromiumPerson, type ConnectorApp, connectAssistant, MemoryOAuthProvider, startConnectorApp } from './connector-helpers.js';

/**
 * The connector end to end, as an assistant uses it: the MCP SDK's own client and OAuth provider
 * against a listening server on a real database — discovery, registration, code + PKCE through our
 * consent page, then tools that act on boards, knowledge and tickets with the user's permissions.
 */
describe('assistant connector, end to end', () => {
  let t: ConnectorApp;
  let receiver: Receiver;
  let chromium: Chromium;
  beforeAll(async () => {
    t = await startConnectorApp();
    receiver = await startReceiver();
    chromium = await launchBrowser();
  });
  afterAll(async () => {
    await chromium?.close();
    await receiver.close();
    await t.close();
  });

  async function signedIn() {
    const user = await makeUser(t.db);
    const browser = new Browser(t.base);
    await browser.signIn(user.email, user.password);
    return { user, browser };
  }

  const mcpPost = (token: string, body: object) =>
    fetch(`${t.base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify(body),
    });
  const listToolsRaw = (token: string) => mcpPost(token, { jsonrpc: '2.0', id: 1, method: 'tools/list' });

  it('publishes the metadata the MCP authorisation spec asks for, and challenges with it', async () => {
    const res = await fetch(`${t.base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toContain(`resource_metadata="${t.base}/.well-known/oauth-protected-resource/mcp"`);

    const prm = await (await fetch(`${t.base}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(prm).toMatchObject({ resource: `${t.base}/mcp`, authorization_servers: [t.base], scopes_supported: ['read', 'write'] });

    const as = (await (await fetch(`${t.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, string[]>;
    expect(as).toMatchObject({
      issuer: t.base,
      authorization_endpoint: `${t.base}/oauth/authorize`,
      token_endpoint: `${t.base}/oauth/token`,
      registration_endpoint: `${t.base}/oauth/register`,
      revocation_endpoint: `${t.base}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
    });
    expect(as.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(as.scopes_supported).toEqual(expect.arrayContaining(['read', 'write']));
  });

  it('connects through the SDK (register, code + PKCE) with a person who signs in and approves in Chromium, lists honest tools, moves a card seen on the SSE stream', async () => {
    const user = await makeUser(t.db);
    const board = await makeBoard(t.db, user.id);
    const { token: apiKey } = await makeKey(t.db, user.id);
    const api = apiClient(t.app, { authorization: `Bearer ${apiKey}` });
    const todo = await makeList(api, board.id, 'To do');
    const done = await makeList(api, board.id, 'Done');
    const [card] = await makeCards(api, todo.id, 2);

    const person = new ChromiumPerson(chromium, t.base, user);
    const { client, provider } = await connectAssistant(t, person);
    // The consent page is the app's: its stylesheet applied (the primary button's accent colour), no CSP breakage.
    expect(person.consentTitle).toBe('Connect Test assistant · Task boards');
    expect(person.consentButtonBackground).not.toMatch(/^rgba?\(0, 0, 0(, 0)?\)$|^rgb\(239, 239, 239\)$/);
    expect(person.problems).toEqual([]);
    expect(provider.info?.client_id).toBeTruthy();
    expect(provider.saved?.refresh_token).toBeTruthy();
    expect(provider.saved?.scope?.split(' ').sort()).toEqual(['read', 'write']);

    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of ['list_boards', 'get_board', 'search_cards', 'get_card', 'list_activity', 'search_knowledge', 'list_tickets']) {
      expect(byName.get(name)?.annotations?.readOnlyHint, name).toBe(true);
    }
    for (const name of ['create_card', 'update_card', 'move_card', 'add_comment', 'add_checklist_item', 'ask_agent', 'create_ticket']) {
      expect(byName.get(name)?.annotations?.readOnlyHint, name).toBe(false);
    }
    expect(byName.get('move_card')!.inputSchema.properties).toHaveProperty('listId');

    const stream = await SseClient.open(`${t.base}/api/boards/${board.id}/events`, { authorization: `Bearer ${apiKey}` });
    try {
      const moved = await call(client, 'move_card', { cardId: card.id, listId: done.id, position: 0 });
      expect(moved.isError, moved.text).toBe(false);
      // The same presented card as POST /api/cards/{id}/move answers.
      const rest = (await api.get(`/api/cards/${card.id}`)).json();
      expect(moved.data).toEqual(rest);
      expect(moved.data).toMatchObject({ id: card.id, listId: done.id, position: 0 });

      const [event] = await stream.waitFor(1);
      expect(event!.event).toBe('card.moved');
      const activity = JSON.parse(event!.data);
      // Marked as made through the assistant (its client name), like a key's changes are.
      expect(activity.actor).toEqual({ userId: user.id, name: user.name, keyId: null, client: 'Test assistant' });
      expect(activity.data).toMatchObject({ cardId: card.id, from: { listId: todo.id }, to: { listId: done.id, position: 0 } });
    } finally {
      stream.close();
    }

    const fetched = await call(client, 'get_board', { boardId: board.id });
    expect(fetched.data).toEqual((await api.get(`/api/boards/${board.id}`)).json());
    const resources = await client.listResources();
    expect(resources.resources.map((r) => r.uri)).toContain(`board://${board.id}`);
    const read = await client.readResource({ uri: `board://${board.id}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: board.id });

    const commented = await call(client, 'add_comment', { cardId: card.id, text: 'from the assistant' });
    expect(commented.data).toMatchObject({ text: 'from the assistant', author: { userId: user.id } });
    const activity = await call(client, 'list_activity', { boardId: board.id, limit: 2 });
    expect(activity.data.activities.map((a: { type: string }) => a.type)).toEqual(['comment.created', 'card.moved']);
  });

  it('acts with exactly the user\'s board permissions: the REST API\'s 404 and 403 messages as tool errors', async () => {
    const { user, browser } = await signedIn();
    const owner = await makeUser(t.db);
    const observed = await makeBoard(t.db, owner.id, [{ userId: user.id, role: 'observer' }]);
    const foreign = await makeBoard(t.db, owner.id);
    const { token: ownerKey } = await makeKey(t.db, owner.id);
    const ownerApi = apiClient(t.app, { authorization: `Bearer ${ownerKey}` });
    const list = await makeList(ownerApi, observed.id);
    const [card] = await makeCards(ownerApi, list.id, 1);
    const foreignList = await makeList(ownerApi, foreign.id);
    const [foreignCard] = await makeCards(ownerApi, foreignList.id, 1);
    const { token: userKey } = await makeKey(t.db, user.id);
    const userApi = apiClient(t.app, { authorization: `Bearer ${userKey}` });

    const { client } = await connectAssistant(t, browser);
    const boards = await call(client, 'list_boards');
    expect(boards.data.boards.map((b: { id: number }) => b.id)).toEqual([observed.id]);

    const restMove = await userApi.post(`/api/cards/${card.id}/move`, { listId: list.id, position: 0 });
    const move = await call(client, 'move_card', { cardId: card.id, listId: list.id, position: 0 });
    expect(restMove.statusCode).toBe(403);
    expect(move).toMatchObject({ isError: true, text: restMove.json().error });

    const restGet = await userApi.get(`/api/cards/${foreignCard.id}`);
    const get = await call(client, 'get_card', { cardId: foreignCard.id });
    expect(restGet.statusCode).toBe(404);
    expect(get).toMatchObject({ isError: true, text: restGet.json().error });
    expect(await call(client, 'get_board', { boardId: foreign.id })).toMatchObject({ isError: true, text: 'board: not found' });

    // Observers may comment, as on /api.
    expect((await call(client, 'add_comment', { cardId: card.id, text: 'seen' })).isError).toBe(false);
    // Input is validated by the same zod rules, with the same messages.
    const tooLong = await call(client, 'create_card', { listId: list.id, title: 'x'.repeat(513) });
    expect(tooLong.isError).toBe(true);
    expect(tooLong.text).toContain('must be 1-512 characters');
  });

  it('searches the knowledge, asks the agent (channel assistant) and files a ticket whose webhook arrives', async () => {
    const { user, browser } = await signedIn();
    const workspace = await makeWorkspace(t.db, { ownerId: user.id });
    const outsider = await makeWorkspace(t.db);
    await createAgent({ db: t.db.prisma, workspaceId: workspace.id, input: { name: 'Helper' } });
    await importArticles({
      db: t.db.prisma,
      workspaceId: workspace.id,
      articles: [
        { externalId: 'reset-password', title: 'Reset your password', body: 'To reset your password, open Settings, choose Security and click Reset password. We e-mail you a link.' },
        { externalId: 'export-data', title: 'Export your data', body: 'Open Settings, then Data, and click Export to download a CSV of your projects.' },
      ],
    });
    const { secret } = await createEndpoint({ db: t.db.prisma, owner: { workspaceId: workspace.id }, input: { url: receiver.url }, allowPrivate: true });

    const { client } = await connectAssistant(t, browser);
    const workspaces = await call(client, 'list_workspaces');
    expect(workspaces.data.workspaces.map((w: { id: number }) => w.id)).toEqual([workspace.id]);

    const found = await call(client, 'search_knowledge', { workspaceId: workspace.id, q: 'how do I reset my pasword' });
    expect(found.isError, found.text).toBe(false);
    expect(found.data.articles[0]).toMatchObject({ externalId: 'reset-password', title: 'Reset your password', score: 1 });
    expect(found.data.articles[0].excerpt).toContain('Reset password');
    expect(await call(client, 'search_knowledge', { workspaceId: outsider.id, q: 'password' })).toMatchObject({ isError: true, text: 'workspace: not found' });

    const answer = await call(client, 'ask_agent', { workspaceId: workspace.id, message: 'How can I reset my password?' });
    expect(answer.isError, answer.text).toBe(false);
    expect(answer.data.sources[0].externalId).toBe('reset-password');
    const turn = await t.db.prisma.conversationTurn.findFirstOrThrow({ where: { conversationId: answer.data.conversationId } });
    expect(turn.channel).toBe('assistant');

    const ticket = await call(client, 'create_ticket', { workspaceId: workspace.id, subject: 'Cannot export', priority: 'high', conversationId: answer.data.conversationId });
    expect(ticket.isError, ticket.text).toBe(false);
    expect(ticket.data).toMatchObject({ workspaceId: workspace.id, subject: 'Cannot export', priority: 'high', status: 'open', requester: { email: user.email } });
    const [delivery] = await receiver.waitFor(1);
    const event = receiver.verify(delivery!, secret);
    expect(event.type).toBe('ticket.created');
    expect(event.data).toMatchObject({ id: ticket.data.id, subject: 'Cannot export' });
    expect(await call(client, 'get_ticket', { workspaceId: workspace.id, ticketId: ticket.data.id })).toMatchObject({ data: ticket.data });
    expect((await call(client, 'get_ticket', { workspaceId: outsider.id, ticketId: ticket.data.id })).text).toBe('workspace: not found');
  });

  it('a read-only grant (Allow read only, clicked in Chromium) lists and calls only read-only tools', async () => {
    const { user, browser } = await signedIn();
    const board = await makeBoard(t.db, user.id);
    const { token: apiKey } = await makeKey(t.db, user.id);
    const list = await makeList(apiClient(t.app, { authorization: `Bearer ${apiKey}` }), board.id);

    const person = new ChromiumPerson(chromium, t.base, user);
    const { client, provider } = await connectAssistant(t, person, { decision: 'approve_read' });
    expect(person.problems).toEqual([]);
    expect(provider.saved?.scope).toBe('read');
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.filter((tool) => tool.annotations?.readOnlyHint !== true).map((tool) => tool.name)).toEqual([]);
    expect(tools.map((tool) => tool.name)).not.toContain('create_card');
    expect((await call(client, 'list_boards')).data.boards).toHaveLength(1);
    const refused = await call(client, 'create_card', { listId: list.id, title: 'nope' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('create_card');
    expect(await t.db.prisma.card.count({ where: { listId: list.id } })).toBe(0);

    const res = await browser.request('/account/connections');
    const { connections } = (await res.json()) as { connections: { scopes: string[]; clientName: string }[] };
    expect(connections).toEqual([expect.objectContaining({ clientName: 'Test assistant', scopes: ['read'] })]);

    // Connected apps, as the person sees it: the connection, and the URL to paste into an assistant with a copy button.
    const context = await chromium.newContext({ baseURL: t.base });
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.base });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto('/signin?next=%2Fsettings%2Fapps');
      await page.getByLabel('E-mail').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByTestId('connector-url').textContent()).resolves.toBe(`${t.base}/mcp`);
      await expect(page.getByRole('row', { name: /Test assistant/ }).textContent()).resolves.toContain('Read only');
      await page.getByRole('button', { name: 'Copy connector URL' }).click();
      await page.getByText('Copied to the clipboard.').waitFor();
      expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(`${t.base}/mcp`);
    } finally {
      await context.close();
    }
  });

  it('tokens never cross surfaces: a connector token on /api or /v1 is refused, a tsk_ key on /mcp too', async () => {
    const { user, browser } = await signedIn();
    const { provider } = await connectAssistant(t, browser);
    const token = provider.saved!.access_token;
    expect((await fetch(`${t.base}/api/boards`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await fetch(`${t.base}/v1/tickets`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await fetch(`${t.base}/account/connections`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    const { token: apiKey } = await makeKey(t.db, user.id);
    const res = await listToolsRaw(apiKey);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await listToolsRaw(token)).status).toBe(200);
  });

  it('disconnecting stops the tokens at the next request', async () => {
    const { browser } = await signedIn();
    const { client, provider } = await connectAssistant(t, browser);
    expect((await call(client, 'list_boards')).isError).toBe(false);

    const list = (await (await browser.request('/account/connections')).json()) as { connections: { id: number; lastUsedAt: string | null }[] };
    expect(list.connections).toHaveLength(1);
    const grant = await t.db.prisma.connectorConnection.findUniqueOrThrow({ where: { id: list.connections[0]!.id } });
    expect(list.connections[0]!.lastUsedAt).not.toBeNull();
    const del = await browser.request(`/account/connections/${list.connections[0]!.id}`, { method: 'DELETE', headers: { origin: t.base } });
    expect(del.status).toBe(204);

    expect((await listToolsRaw(provider.saved!.access_token)).status).toBe(401);
    // The SDK's next call fails too: its refresh token died with the connection.
    await expect(client.callTool({ name: 'list_boards', arguments: {} })).rejects.toThrow();
    const refresh = await refreshWith(provider, provider.saved!.refresh_token!);
    expect(refresh.status).toBe(400);
    expect(((await refresh.json()) as { error: string }).error).toBe('invalid_grant');
    expect(await t.db.prisma.oAuthRecord.count({ where: { grantId: grant.grantId } })).toBe(0);
  });

  it('blocking the user stops the tokens at the next request', async () => {
    const { user, browser } = await signedIn();
    const { provider } = await connectAssistant(t, browser);
    expect((await listToolsRaw(provider.saved!.access_token)).status).toBe(200);
    await setUserStatus({ db: t.db.prisma, userId: user.id, status: 'blocked', userChanged: afterUserChange(t.app.effects) });
    expect((await listToolsRaw(provider.saved!.access_token)).status).toBe(401);
    const refresh = await refreshWith(provider, provider.saved!.refresh_token!);
    expect(refresh.status).toBe(400);
  });

  const refreshWith = (provider: MemoryOAuthProvider, refreshToken: string) =>
    fetch(`${t.base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: provider.info!.client_id }),
    });

  it('rotates refresh tokens and detects reuse: a replayed one revokes the whole connection', async () => {
    const { browser } = await signedIn();
    const { provider } = await connectAssistant(t, browser);
    const first = provider.saved!;

    const rotated = await refreshWith(provider, first.refresh_token!);
    expect(rotated.status).toBe(200);
    const second = (await rotated.json()) as { access_token: string; refresh_token: string; scope: string };
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await listToolsRaw(second.access_token)).status).toBe(200);

    // An attacker (or a bug) replays the first refresh token.
    const replay = await refreshWith(provider, first.refresh_token!);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');
    // Everything issued under the grant is gone: the legitimate client's new tokens too.
    expect((await listToolsRaw(second.access_token)).status).toBe(401);
    expect((await refreshWith(provider, second.refresh_token)).status).toBe(400);
    expect(((await (await browser.request('/account/connections')).json()) as { connections: unknown[] }).connections).toEqual([]);
  });

  it('revocation (RFC 7009) of the refresh token ends the connection', async () => {
    const { browser } = await signedIn();
    const { provider } = await connectAssistant(t, browser);
    const res = await fetch(`${t.base}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: provider.saved!.refresh_token!, token_type_hint: 'refresh_token', client_id: provider.info!.client_id }),
    });
    expect(res.status).toBe(200);
    expect((await listToolsRaw(provider.saved!.access_token)).status).toBe(401);
  });

  it('logs every tool call without secrets', async () => {
    const { browser } = await signedIn();
    const { client, provider } = await connectAssistant(t, browser);
    await call(client, 'list_boards');
    const lines = t.logs.lines.filter((l) => l.msg === 'connector tool call');
    expect(lines.some((l) => l.tool === 'list_boards' && l.outcome === 'ok')).toBe(true);
    const all = t.logs.raw.join('\n');
    for (const secret of [provider.saved!.access_token, provider.saved!.refresh_token!, provider.verifier]) expect(all).not.toContain(secret);
    expect(all).not.toContain(browser.cookies.get('tb_session'));
  });

  it('a client\'s mistakes are 4xx or tool errors, never a 500', async () => {
    const { provider } = await connectAssistant(t, (await signedIn()).browser);
    const token = provider.saved!.access_token;
    const raw = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${t.base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body,
      });
    expect((await raw('{not json')).status).toBe(400);
    expect((await raw('"a string"')).status).toBe(400);
    expect((await raw('{}')).status).toBe(400);
    expect((await raw(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { accept: 'text/html' })).status).toBe(406);
    expect((await raw(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { 'content-type': 'text/plain' })).status).toBe(415);
    const unknown = (await (await raw(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'drop_tables', arguments: {} } }))).json()) as any;
    expect(unknown.error?.message ?? unknown.result?.content?.[0]?.text).toMatch(/drop_tables/);
    const badArgs = await raw(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_card', arguments: { cardId: 'seven' } } }));
    expect(badArgs.status).toBe(200);
    const body = (await badArgs.json()) as any;
    expect(body.result.isError).toBe(true);
    expect(body.result.content[0].text).toContain('must be a positive integer id');
    const huge = await raw(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_card', arguments: { cardId: 99_999_999_999 } } }));
    expect(((await huge.json()) as any).result.isError).toBe(true);
  });

  it('refuses a JSON-RPC batch (400, a JSON-RPC error) and runs none of its calls: one request must not be 100 tool calls', async () => {
    const { provider } = await connectAssistant(t, (await signedIn()).browser);
    const token = provider.saved!.access_token;
    const toolCalls = () => t.logs.lines.filter((l) => l.msg === 'connector tool call').length;
    const before = toolCalls();
    const batch = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'list_boards', arguments: {} } }));
    const res = await mcpPost(token, batch);
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/batches are not supported/) } });
    // A batch of one is a batch too; a single message still works.
    expect((await mcpPost(token, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }])).status).toBe(400);
    expect(toolCalls()).toBe(before);
    const single = await mcpPost(token, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_boards', arguments: {} } });
    expect(single.status).toBe(200);
    expect(toolCalls()).toBe(before + 1);
  });

  it('a client that brings its bearer token without the OAuth helper works too; stateless GET is 405', async () => {
    const { provider } = await connectAssistant(t, (await signedIn()).browser);
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', t.base), { requestInit: { headers: { authorization: `Bearer ${provider.saved!.access_token}` } } });
    const client = new Client({ name: 'bare', version: '1' });
    await client.connect(transport);
    expect((await client.listTools()).tools.length).toBeGreaterThan(10);
    await client.close();
    const get = await fetch(`${t.base}/mcp`, { headers: { authorization: `Bearer ${provider.saved!.access_token}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
  });
});
