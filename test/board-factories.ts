import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { makeBoard, makeKey, makeUser } from './factories.js';
import type { TestAppHandle } from './helper.js';

/**
 * Factories and assertions for the task-board tests. Lists and cards are made through the API
 * itself (the only contract the tests hold the server to), boards and users through the
 * account factories, so every test builds its own rows and never leans on another test's.
 */

export type Headers = Record<string, string>;
export type Res = LightMyRequestResponse;

/** Settings for every board test app: the per-credential rate limit is not what these test. */
export const BOARD_TEST_ENV = { RATE_LIMIT_MAX: '1000000' };

/** Short request helpers bound to one app and one credential. */
export function client(app: FastifyInstance, headers: Headers) {
  const send = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown, extra: Headers = {}) =>
    app.inject({ method, url, headers: { ...headers, ...extra }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    get: (url: string, extra: Headers = {}) => send('GET', url, undefined, extra),
    post: (url: string, payload?: unknown, extra: Headers = {}) => send('POST', url, payload, extra),
    patch: (url: string, payload?: unknown, extra: Headers = {}) => send('PATCH', url, payload, extra),
    put: (url: string, payload?: unknown, extra: Headers = {}) => send('PUT', url, payload, extra),
    del: (url: string, extra: Headers = {}) => send('DELETE', url, undefined, extra),
  };
}
export type Client = ReturnType<typeof client>;

/** Fails with the response body in the message, so a wrong status explains itself. */
export function expectStatus(res: Res, status: number) {
  expect(res.statusCode, `${res.statusCode} ${res.body}`).toBe(status);
}

/** An error answer: the status, and a body that is exactly `{"error": "<message>"}`. */
export function expectError(res: Res, status: number, message?: RegExp) {
  expectStatus(res, status);
  const body = res.json();
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error).toBe('string');
  expect(body.error.length).toBeGreaterThan(0);
  if (message) expect(body.error).toMatch(message);
}

/** A 400 whose message names the field first, as in `"title: must be 1-512 characters"`. */
export function expectFieldError(res: Res, field: string) {
  expectError(res, 400, new RegExp(`^${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
}

/** A 204: no body at all. */
export function expectNoContent(res: Res) {
  expectStatus(res, 204);
  expect(res.body).toBe('');
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export function expectBoard(b: any) {
  expect(b).toMatchObject({
    id: expect.any(Number),
    name: expect.any(String),
    description: expect.any(String),
    color: expect.any(String),
    archived: expect.any(Boolean),
    role: expect.stringMatching(/^(admin|member|observer)$/),
    createdAt: expect.stringMatching(ISO),
    updatedAt: expect.stringMatching(ISO),
  });
}

export function expectList(l: any) {
  expect(l).toMatchObject({
    id: expect.any(Number),
    boardId: expect.any(Number),
    name: expect.any(String),
    position: expect.any(Number),
    archived: expect.any(Boolean),
  });
}

export const CARD_SUMMARY_KEYS = [
  'id', 'boardId', 'listId', 'title', 'description', 'position', 'archived', 'dueAt', 'labelIds', 'memberIds',
  'fieldValues', 'checklistItems', 'commentCount', 'attachmentCount', 'coverAttachmentId', 'createdAt', 'updatedAt', 'version',
] as const;

/** Every field of the card summary, with its type. */
export function expectCardSummary(c: any) {
  for (const key of CARD_SUMMARY_KEYS) expect(c, `card field ${key}`).toHaveProperty(key);
  expect(c).toMatchObject({
    id: expect.any(Number),
    boardId: expect.any(Number),
    listId: expect.any(Number),
    title: expect.any(String),
    description: expect.any(String),
    position: expect.any(Number),
    archived: expect.any(Boolean),
    labelIds: expect.any(Array),
    memberIds: expect.any(Array),
    fieldValues: expect.any(Object),
    checklistItems: { total: expect.any(Number), checked: expect.any(Number) },
    commentCount: expect.any(Number),
    attachmentCount: expect.any(Number),
    createdAt: expect.stringMatching(ISO),
    updatedAt: expect.stringMatching(ISO),
    version: expect.any(Number),
  });
  expect(Number.isInteger(c.version)).toBe(true);
  expect(c.dueAt === null || ISO.test(c.dueAt)).toBe(true);
  expect(Array.isArray(c.fieldValues)).toBe(false);
}

/** The full card: the summary plus checklists, comments and attachments. */
export function expectFullCard(c: any) {
  expectCardSummary(c);
  expect(c).toMatchObject({ checklists: expect.any(Array), comments: expect.any(Array), attachments: expect.any(Array) });
}

/** A response carrying one card: 200/201, a full card, and `ETag: "<version>"`. */
export function expectCardResponse(res: Res, status: number) {
  expectStatus(res, status);
  const card = res.json();
  expectFullCard(card);
  expect(res.headers.etag).toBe(`"${card.version}"`);
  return card;
}

/** Items in the order given have positions exactly 0..n-1. */
export function expectCompactPositions(items: { position: number }[]) {
  expect(items.map((i) => i.position)).toEqual(items.map((_, i) => i));
}

/** A board's non-archived lists by position, each with its non-archived cards by position. */
export async function fetchBoard(api: Client, boardId: number) {
  const res = await api.get(`/api/boards/${boardId}`);
  expectStatus(res, 200);
  return res.json();
}

/** The card ids of a list as the board fetch shows them, in order. */
export async function cardIdsOfList(api: Client, boardId: number, listId: number): Promise<number[]> {
  const board = await fetchBoard(api, boardId);
  const list = board.lists.find((l: any) => l.id === listId);
  if (!list) throw new Error(`list ${listId} is not on board ${boardId}`);
  expectCompactPositions(list.cards);
  return list.cards.map((c: any) => c.id);
}

/** The ids of cards (or anything with an id), in the order given. */
export const idsOf = (items: { id: number }[]) => items.map((i) => i.id);

/** A list made through the API (201). */
export async function makeList(api: Client, boardId: number, name = 'List', position?: number) {
  const res = await api.post(`/api/boards/${boardId}/lists`, position === undefined ? { name } : { name, position });
  expectStatus(res, 201);
  return res.json();
}

/** A card made through the API (201), at the end of the list. */
export async function makeCard(api: Client, listId: number, title = 'Card', description?: string) {
  const res = await api.post(`/api/lists/${listId}/cards`, description === undefined ? { title } : { title, description });
  expectStatus(res, 201);
  return res.json();
}

/** Several cards in order, titled `${prefix}0`, `${prefix}1`, … */
export async function makeCards(api: Client, listId: number, count: number, prefix = 'c') {
  const cards = [];
  for (let i = 0; i < count; i++) cards.push(await makeCard(api, listId, `${prefix}${i}`));
  return cards;
}

/**
 * A board with one user per role (admin, member, observer), a stranger who is on no board of
 * theirs, and a write key for each; plus one list with `cards` cards made by the admin.
 */
export async function makeTeam(t: TestAppHandle, options: { cards?: number } = {}) {
  const admin = await makeUser(t.db);
  const member = await makeUser(t.db);
  const observer = await makeUser(t.db);
  const stranger = await makeUser(t.db);
  const board = await makeBoard(t.db, admin.id, [
    { userId: member.id, role: 'member' },
    { userId: observer.id, role: 'observer' },
  ]);
  const keys = {
    admin: await makeKey(t.db, admin.id),
    member: await makeKey(t.db, member.id),
    observer: await makeKey(t.db, observer.id),
    stranger: await makeKey(t.db, stranger.id),
  };
  const as = {
    admin: client(t.app, keys.admin.auth),
    member: client(t.app, keys.member.auth),
    observer: client(t.app, keys.observer.auth),
    stranger: client(t.app, keys.stranger.auth),
  };
  const list = await makeList(as.admin, board.id, 'Todo');
  const cards = await makeCards(as.admin, list.id, options.cards ?? 0);
  return { admin, member, observer, stranger, board, keys, as, list, cards };
}

/**
 * A user with a write key and a board of their own (no list), and `call`, which sends a request
 * with that key and reads the answer as its status and JSON body.
 */
export async function makeBoardOwner(t: TestAppHandle) {
  const user = await makeUser(t.db);
  const board = await makeBoard(t.db, user.id);
  const { auth, key } = await makeKey(t.db, user.id);
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, json: res.body ? res.json() : null };
  };
  return { user, board, auth, key, call };
}

export interface RouteCall {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  payload?: unknown;
}

/**
 * Every route of this part of the API that names a board, a list or a card (with a valid body,
 * so that validation cannot answer first). `targetListId` is a list the caller may reach, for
 * moves and copies.
 */
export function routesOf(ids: { boardId: number; listId: number; cardId: number; userId: number; targetListId: number }): RouteCall[] {
  const { boardId, listId, cardId, userId, targetListId } = ids;
  return [
    { method: 'GET', url: `/api/boards/${boardId}` },
    { method: 'PATCH', url: `/api/boards/${boardId}`, payload: { name: 'renamed' } },
    { method: 'DELETE', url: `/api/boards/${boardId}` },
    { method: 'GET', url: `/api/boards/${boardId}/archived` },
    { method: 'GET', url: `/api/boards/${boardId}/activity` },
    { method: 'GET', url: `/api/boards/${boardId}/members` },
    { method: 'POST', url: `/api/boards/${boardId}/members`, payload: { email: 'someone-new@example.com', role: 'member' } },
    { method: 'PATCH', url: `/api/boards/${boardId}/members/${userId}`, payload: { role: 'observer' } },
    { method: 'DELETE', url: `/api/boards/${boardId}/members/${userId}` },
    { method: 'GET', url: `/api/boards/${boardId}/lists` },
    { method: 'POST', url: `/api/boards/${boardId}/lists`, payload: { name: 'New list' } },
    { method: 'PATCH', url: `/api/lists/${listId}`, payload: { name: 'renamed' } },
    { method: 'POST', url: `/api/lists/${listId}/move`, payload: { position: 0 } },
    { method: 'POST', url: `/api/lists/${listId}/cards`, payload: { title: 'New card' } },
    { method: 'GET', url: `/api/cards/${cardId}` },
    { method: 'PATCH', url: `/api/cards/${cardId}`, payload: { title: 'renamed' } },
    { method: 'POST', url: `/api/cards/${cardId}/move`, payload: { listId: targetListId, position: 0 } },
    { method: 'POST', url: `/api/cards/${cardId}/copy`, payload: { listId: targetListId } },
    { method: 'DELETE', url: `/api/cards/${cardId}` },
  ];
}

/** Sends one RouteCall with the given headers. */
export function call(app: FastifyInstance, route: RouteCall, headers: Headers) {
  return app.inject({
    method: route.method,
    url: route.url,
    headers,
    ...(route.payload === undefined ? {} : { payload: route.payload as object }),
  });
}

// ---- Card parts: labels, custom fields, checklists, comments (appended for the card-part tests) ----

/** A label made through the API (201). */
export async function makeLabel(api: Client, boardId: number, name = 'Label', color: string | null = 'green') {
  const res = await api.post(`/api/boards/${boardId}/labels`, { name, color });
  expectStatus(res, 201);
  return res.json();
}

/** A custom field made through the API (201); board admins only. */
export async function makeField(api: Client, boardId: number, type: string, options?: string[], name = `${type} field`) {
  const res = await api.post(`/api/boards/${boardId}/custom-fields`, options === undefined ? { name, type } : { name, type, options });
  expectStatus(res, 201);
  return res.json();
}

/** Sets a card's value of a field (200) and returns the full card. */
export async function setField(api: Client, cardId: number, fieldId: number, value: unknown) {
  const res = await api.put(`/api/cards/${cardId}/fields/${fieldId}`, { value });
  return expectCardResponse(res, 200);
}

/** A checklist on a card (201). */
export async function makeChecklist(api: Client, cardId: number, name = 'Checklist') {
  const res = await api.post(`/api/cards/${cardId}/checklists`, { name });
  expectStatus(res, 201);
  return res.json();
}

/** An item at the end of a checklist (201). */
export async function makeItem(api: Client, checklistId: number, name = 'Item', checked?: boolean) {
  const res = await api.post(`/api/checklists/${checklistId}/items`, checked === undefined ? { name } : { name, checked });
  expectStatus(res, 201);
  return res.json();
}

/** A comment on a card (201). */
export async function makeComment(api: Client, cardId: number, text = 'A comment') {
  const res = await api.post(`/api/cards/${cardId}/comments`, { text });
  expectStatus(res, 201);
  return res.json();
}

/** The full card as GET /cards/{id} returns it (200). */
export async function getCard(api: Client, cardId: number) {
  return expectCardResponse(await api.get(`/api/cards/${cardId}`), 200);
}

/** A full card without the parts only a full card has: what a summary of it must equal. */
export function summaryOf(card: any) {
  const { checklists: _c, comments: _m, attachments: _a, ...summary } = card;
  return summary;
}

/** The newest activities of a board (first page, newest first). */
export async function boardActivities(api: Client, boardId: number, limit = 200): Promise<any[]> {
  const res = await api.get(`/api/boards/${boardId}/activity?limit=${limit}`);
  expectStatus(res, 200);
  return res.json().activities;
}

/** The newest activity of a board (it must have one). */
export async function lastActivity(api: Client, boardId: number) {
  const [a] = await boardActivities(api, boardId, 1);
  expect(a, 'the board has an activity').toBeDefined();
  return a;
}

/**
 * A 400 naming a query parameter: `"limit: …"`, or as the platform's validation prefixes query
 * fields, `"querystring.limit: …"`.
 */
export function expectQueryError(res: Res, field: string) {
  expectError(res, 400, new RegExp(`^(querystring\\.)?${field}: `));
}

// ---- Attachments, invitations (appended for the single-object, search and invitation tests) ----

/** A text file attached to a card through the API (201). */
export async function makeAttachment(app: FastifyInstance, headers: Headers, cardId: number, filename = 'notes.txt', content: string | Buffer = 'hello') {
  const boundary = `----tbfactory${cardId}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await app.inject({ method: 'POST', url: `/api/cards/${cardId}/attachments`, headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
  expectStatus(res, 201);
  return res.json();
}

// ---- Concurrency tests ----

/** A small seeded generator, so that a failing run can be replayed. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
