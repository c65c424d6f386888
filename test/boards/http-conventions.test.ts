import { describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  type Client,
  expectError,
  expectFieldError,
  expectStatus,
  makeCard,
  makeComment,
  makeTeam,
  type Res,
} from '../board-factories.js';
import { loginCookie, makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

/**
 * HTTP conventions a script author expects of /api (issue 16): Link headers on every paged
 * collection, conditional GETs of cards and boards, strong If-Match, unknown query parameters
 * refused, CORS for bearer keys only.
 */
const t = useTestApp(BOARD_TEST_ENV);

/** The target of `Link: <…>; rel="next"`, or null when there is none. */
function nextLink(res: Res): string | null {
  const header = res.headers.link;
  if (header === undefined) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(String(header));
  expect(match, String(header)).not.toBeNull();
  return match![1]!;
}

/** Follows rel="next" from `url` to the end; the items of every page, and the pages' Link targets. */
async function followLinks(api: Client, url: string, items: string) {
  const seen: unknown[] = [];
  const links: string[] = [];
  let next: string | null = url;
  while (next) {
    const res = await api.get(next);
    expectStatus(res, 200);
    seen.push(...res.json()[items]);
    next = nextLink(res);
    if (next) links.push(next);
  }
  return { seen, links };
}

describe('Link: rel="next" on paged collections', () => {
  it('pages the activity with ?before=, keeping the other parameters, and stops on the last page', async () => {
    const team = await makeTeam(t, { cards: 4 });
    const all = (await team.as.admin.get(`/api/boards/${team.board.id}/activity?limit=200`)).json().activities;
    const first = await team.as.admin.get(`/api/boards/${team.board.id}/activity?limit=2`);
    expect(nextLink(first)).toBe(`/api/boards/${team.board.id}/activity?limit=2&before=${first.json().nextBefore}`);
    const { seen } = await followLinks(team.as.admin, `/api/boards/${team.board.id}/activity?limit=2`, 'activities');
    expect(seen).toEqual(all);
  });

  it("pages a card's comments with ?before=", async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id);
    for (const text of ['one', 'two', 'three']) await makeComment(team.as.admin, card.id, text);
    const { seen, links } = await followLinks(team.as.admin, `/api/cards/${card.id}/comments?limit=2`, 'comments');
    expect(seen.map((c: any) => c.text)).toEqual(['three', 'two', 'one']);
    expect(links).toHaveLength(1);
  });

  it('pages the search across boards with ?cursor=, q kept', async () => {
    const team = await makeTeam(t);
    const word = `zebra${Date.now()}`;
    for (let i = 0; i < 3; i++) await makeCard(team.as.admin, team.list.id, `${word} ${i}`);
    const { seen, links } = await followLinks(team.as.admin, `/api/search?q=${word}&limit=2`, 'cards');
    expect(seen).toHaveLength(3);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatch(new RegExp(`^/api/search\\?q=${word}&limit=2&cursor=[A-Za-z0-9_-]+$`));
  });

  it('pages the cards assigned to me with ?cursor=', async () => {
    const team = await makeTeam(t);
    for (let i = 0; i < 3; i++) {
      expectStatus(await team.as.admin.post(`/api/lists/${team.list.id}/cards`, { title: `mine ${i}`, memberIds: [team.admin.id] }), 201);
    }
    const { seen, links } = await followLinks(team.as.admin, '/api/cards?member=me&limit=2', 'cards');
    expect(seen).toHaveLength(3);
    expect(links).toHaveLength(1);
  });

  it('is declared in the OpenAPI document of every paged operation', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
    for (const [path, method] of [['/boards/{id}/activity', 'get'], ['/cards/{id}/comments', 'get'], ['/search', 'get'], ['/cards', 'get']] as const) {
      expect(doc.paths[path][method].responses['200'].headers?.link?.schema, `${method} ${path}`).toEqual({ type: 'string' });
    }
  });

  it('limit and before take plain digits only', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'C');
    for (const bad of ['1e2', '0x10', '%205', '-1', '1.5']) {
      expect((await team.as.admin.get(`/api/cards/${card.id}/comments?limit=${bad}`)).statusCode).toBe(400);
      expect((await team.as.admin.get(`/api/boards/${team.board.id}/activity?before=${bad}`)).statusCode).toBe(400);
    }
  });
});

describe('conditional GETs: ETag and If-None-Match', () => {
  it('answers GET /cards/{id} with 304 and no body while the ETag is current (weak comparison), 200 once it changed', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id);
    const first = await team.as.admin.get(`/api/cards/${card.id}`);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"\d+"$/);
    for (const header of [etag, `W/${etag}`, `"999", ${etag}`, '*']) {
      const res = await team.as.admin.get(`/api/cards/${card.id}`, { 'if-none-match': header });
      expectStatus(res, 304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
    }
    expectStatus(await team.as.admin.patch(`/api/cards/${card.id}`, { title: 'Renamed' }), 200);
    const changed = await team.as.admin.get(`/api/cards/${card.id}`, { 'if-none-match': etag });
    expectStatus(changed, 200);
    expect(changed.json().title).toBe('Renamed');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('gives the board snapshot a strong ETag that changes with anything in it, and 304 while it does not', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id);
    const first = await team.as.admin.get(`/api/boards/${team.board.id}`);
    expectStatus(first, 200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect((await team.as.admin.get(`/api/boards/${team.board.id}`)).headers.etag).toBe(etag);

    const notModified = await team.as.admin.get(`/api/boards/${team.board.id}`, { 'if-none-match': etag });
    expectStatus(notModified, 304);
    expect(notModified.body).toBe('');
    expect(notModified.headers.etag).toBe(etag);

    // Another member's snapshot says another role: another tag.
    expect((await team.as.member.get(`/api/boards/${team.board.id}`)).headers.etag).not.toBe(etag);

    expectStatus(await team.as.admin.patch(`/api/cards/${card.id}`, { description: 'changed' }), 200);
    const changed = await team.as.admin.get(`/api/boards/${team.board.id}`, { 'if-none-match': etag });
    expectStatus(changed, 200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('sends the board snapshot compact, byte for byte as JSON.stringify writes it', async () => {
    const team = await makeTeam(t, { cards: 3 });
    expectStatus(await team.as.admin.post(`/api/boards/${team.board.id}/labels`, { name: 'Bug "x"\n', color: 'red' }), 201);
    const res = await team.as.admin.get(`/api/boards/${team.board.id}`);
    expectStatus(res, 200);
    expect(res.body).toBe(JSON.stringify(res.json()));
  });

  it('declares ETag, If-None-Match and 304 on getCard and getBoard', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
    for (const path of ['/cards/{id}', '/boards/{id}']) {
      const op = doc.paths[path].get;
      expect(op.responses['304'].content).toBeUndefined();
      expect(op.responses['304'].headers.etag).toBeDefined();
      expect(op.responses['200'].headers.etag).toBeDefined();
      expect(op.parameters.some((p: any) => p.in === 'header' && p.name === 'if-none-match')).toBe(true);
    }
  });
});

describe('If-Match compares strongly', () => {
  it('refuses a weak tag with 409 and changes nothing; the strong tag applies', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id);
    const weak = await team.as.admin.patch(`/api/cards/${card.id}`, { title: 'Weak' }, { 'if-match': `W/"${card.version}"` });
    expectError(weak, 409, /^if-match: a weak tag \(W\/"\d+"\) never matches/);
    expect((await team.as.admin.get(`/api/cards/${card.id}`)).json().title).toBe(card.title);
    expectStatus(await team.as.admin.patch(`/api/cards/${card.id}`, { title: 'Strong' }, { 'if-match': `"${card.version}"` }), 200);
  });

  it('refuses it on the routes that change something on a card too', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id);
    expectError(await team.as.admin.post(`/api/cards/${card.id}/comments`, { text: 'hi' }, { 'if-match': 'W/"1"' }), 409);
    expectError(await team.as.admin.del(`/api/cards/${card.id}`, { 'if-match': 'W/"1"' }), 409);
  });

  it('If-Match is honoured on the routes that change a card through /cards/{id}/…', async () => {
    const team = await makeTeam(t);
    const a = team.as.admin;
    const card = await makeCard(a, team.list.id, 'C');
    const lab = (await a.post(`/api/boards/${team.board.id}/labels`, { name: 'l' })).json();
    const f = (await a.post(`/api/boards/${team.board.id}/custom-fields`, { name: 'n', type: 'number' })).json();
    const v = (await a.patch(`/api/cards/${card.id}`, { title: 'C2' })).json().version;
    const stale = { 'if-match': `"${v - 1}"` };
    expect((await a.put(`/api/cards/${card.id}/labels/${lab.id}`, undefined, stale)).statusCode).toBe(409);
    expect((await a.put(`/api/cards/${card.id}/members/${team.admin.id}`, undefined, stale)).statusCode).toBe(409);
    expect((await a.put(`/api/cards/${card.id}/fields/${f.id}`, { value: 1 }, stale)).statusCode).toBe(409);
    expect((await a.post(`/api/cards/${card.id}/checklists`, { name: 'x' }, stale)).statusCode).toBe(409);
    expect((await a.post(`/api/cards/${card.id}/comments`, { text: 'x' }, stale)).statusCode).toBe(409);
    expect((await a.put(`/api/cards/${card.id}/labels/${lab.id}`, undefined, { 'if-match': 'garbage' })).statusCode).toBe(400);
    const current = await a.get(`/api/cards/${card.id}`);
    expect(current.json().version).toBe(v);
    expect((await a.put(`/api/cards/${card.id}/labels/${lab.id}`, undefined, { 'if-match': `"${v}"` })).statusCode).toBe(200);
  });
});

describe('unknown query parameters', () => {
  it('are refused with 400 naming them, on routes with and without a query schema', async () => {
    const team = await makeTeam(t);
    expectError(await team.as.admin.get('/api/boards?archive=true'), 400, /^querystring\.archive: unknown parameter$/);
    expectError(await team.as.admin.get(`/api/boards/${team.board.id}?expand=cards&x=1`), 400, /^querystring\.expand: unknown parameter \(and x\)$/);
    expectFieldError(await team.as.admin.post(`/api/boards/${team.board.id}/lists?position=1`, { name: 'L' }), 'querystring.position');
    expectFieldError(await team.as.admin.get(`/api/boards/${team.board.id}/activity?limit=5&befor=3`), 'querystring.befor');
    expect((await team.as.admin.get(`/api/boards/${team.board.id}/lists`)).statusCode).not.toBe(400);
  });

  it('are accepted when declared', async () => {
    const team = await makeTeam(t);
    expectStatus(await team.as.admin.get('/api/boards?archived=false'), 200);
    expectStatus(await team.as.admin.get(`/api/boards/${team.board.id}/activity?limit=5`), 200);
  });

  it('are refused by the web backend too', async () => {
    const user = await makeUser(t.db);
    const { cookie } = await loginCookie(t.app, user.email, user.password);
    expectFieldError(await t.app.inject({ method: 'GET', url: '/auth/me?verbose=1', headers: { cookie } }), 'querystring.verbose');
    expectStatus(await t.app.inject({ method: 'GET', url: '/auth/me', headers: { cookie } }), 200);
  });
});

describe('CORS for bearer keys', () => {
  const origin = 'https://scripts.example.org';

  it('answers a preflight from any origin with the methods and headers a key needs', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/boards/1/cards?x=1',
      headers: { origin, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization, if-match, content-type' },
    });
    expectStatus(res, 204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toContain('PATCH');
    expect(res.headers['access-control-allow-headers']).toBe('authorization, content-type, if-match, if-none-match');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets a cross-origin script read responses, errors and the headers it needs, never with credentials', async () => {
    const user = await makeUser(t.db);
    const key = await makeKey(t.db, user.id);
    const ok = await t.app.inject({ method: 'GET', url: '/api/boards', headers: { origin, ...key.auth } });
    expectStatus(ok, 200);
    expect(ok.headers['access-control-allow-origin']).toBe('*');
    const exposed = String(ok.headers['access-control-expose-headers']).split(', ');
    for (const name of ['etag', 'link', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-request-id', 'location']) {
      expect(exposed).toContain(name);
    }
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
    const denied = await t.app.inject({ method: 'GET', url: '/api/boards', headers: { origin } });
    expectStatus(denied, 401);
    expect(denied.headers['access-control-allow-origin']).toBe('*');
  });

  it('still refuses a cross-origin change made with the session cookie alone', async () => {
    const user = await makeUser(t.db);
    const { cookie } = await loginCookie(t.app, user.email, user.password);
    const res = await t.app.inject({ method: 'POST', url: '/api/boards', headers: { origin, cookie }, payload: { name: 'From elsewhere' } });
    expectError(res, 403, /origin/);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('leaves the web backend alone (no CORS outside /api)', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/auth/login', headers: { origin, 'access-control-request-method': 'POST' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
