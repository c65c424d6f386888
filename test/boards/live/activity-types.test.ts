import { Ajv } from 'ajv';
import { beforeAll, expect, it } from 'vitest';
import { ACTIVITY_TYPES, RETIRED_ACTIVITY_TYPES } from '../../../src/boards/activity/activity-types.js';
import type { RecordActivity } from '../../../src/boards/activity/change-board.js';
import { client, expectStatus, type Res } from '../../board-factories.js';
import { makeKey, makeUser } from '../../factories.js';
import { useTestApp } from '../../helper.js';
import { SseClient } from '../../sse-client.js';

/**
 * Every activity type, recorded through the API, as the activity log and the live stream send
 * it: valid against the `Activity` union of the /api document (each member's data exactly as
 * documented: no field missing, none extra), and the log's JSON the same as the stream's.
 */
const t = useTestApp({ RATE_LIMIT_MAX: '1000000' });
let base: string;
beforeAll(async () => {
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

/** Compile-time: record(…) takes only the activity types there are, each with its own data. Never called. */
export function recordIsTyped(record: RecordActivity) {
  // @ts-expect-error: no such activity type
  void record({ boardId: 1, type: 'card.exploded', data: { cardId: 1 } });
  // @ts-expect-error: card.deleted carries no labelId
  void record({ boardId: 1, type: 'card.deleted', data: { cardId: 1, listId: 2, labelId: 3 } });
  // @ts-expect-error: list.created carries the list
  void record({ boardId: 1, type: 'list.created', data: { listId: 1 } });
  // @ts-expect-error: a retired type is never recorded again
  void record({ boardId: 1, type: 'invitation.updated', data: { email: 'a@example.com', role: 'member' } });
}

/** A validator of the document's `Activity` (ajv; OpenAPI 3.0's `nullable` is read next to a type only). */
function activityValidator(document: { components: unknown }) {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = key === '$ref' && typeof value === 'string' ? `api${value}` : rewrite(value);
    if (out.nullable === true && !out.type) delete out.nullable;
    return out;
  };
  const ajv = new Ajv({ strict: false, allErrors: false });
  ajv.addSchema({ $id: 'api', components: rewrite(document.components) });
  return ajv.compile({ $ref: 'api#/components/schemas/Activity' });
}

function ok(res: Res, status = 200) {
  expectStatus(res, status);
  return res.body ? res.json() : null;
}

it('records every activity type, each valid against its member of the Activity union, the same in the log and on the stream', async () => {
  const admin = await makeUser(t.db);
  const member = await makeUser(t.db);
  const adminKey = await makeKey(t.db, admin.id);
  const api = client(t.app, adminKey.auth);
  const asMember = client(t.app, (await makeKey(t.db, member.id)).auth);

  const board = ok(await api.post('/api/boards', { name: 'Activities' }), 201);
  const other = ok(await api.post('/api/boards', { name: 'Elsewhere' }), 201);

  // Board, members and invitations.
  ok(await api.patch(`/api/boards/${board.id}`, { name: 'Activities, renamed', archived: false }));
  ok(await api.post(`/api/boards/${board.id}/members`, { email: member.email, role: 'observer' }), 201);
  ok(await api.patch(`/api/boards/${board.id}/members/${member.id}`, { role: 'member' }));
  const invited = `invited-${Date.now()}@example.com`;
  ok(await api.post(`/api/boards/${board.id}/members`, { email: invited, role: 'member' }), 202);
  await makeUser(t.db, { email: invited }); // accepts the invitation: member.added with invitation: true
  const revoked = `revoked-${Date.now()}@example.com`;
  ok(await api.post(`/api/boards/${board.id}/members`, { email: revoked, role: 'observer' }), 202);
  ok(await api.del(`/api/boards/${board.id}/invitations/${encodeURIComponent(revoked)}`), 204);

  // Lists.
  const todo = ok(await api.post(`/api/boards/${board.id}/lists`, { name: 'To do' }), 201);
  const done = ok(await api.post(`/api/boards/${board.id}/lists`, { name: 'Done' }), 201);
  const spare = ok(await api.post(`/api/boards/${board.id}/lists`, { name: 'Spare' }), 201);
  const away = ok(await api.post(`/api/boards/${other.id}/lists`, { name: 'Away' }), 201);
  ok(await api.patch(`/api/lists/${todo.id}`, { name: 'To do now' }));
  ok(await api.post(`/api/lists/${done.id}/move`, { position: 0 }));
  ok(await api.patch(`/api/lists/${spare.id}`, { archived: true }));
  ok(await api.patch(`/api/lists/${spare.id}`, { archived: false }));
  ok(await api.post(`/api/lists/${spare.id}/move`, { position: 0, boardId: other.id }));
  const gone = ok(await api.post(`/api/boards/${board.id}/lists`, { name: 'Gone' }), 201);
  ok(await api.post(`/api/lists/${gone.id}/cards`, { title: 'Goes with it' }), 201);
  ok(await api.del(`/api/lists/${gone.id}`), 204);

  // Custom fields of every type, and cards carrying their values.
  const field = async (name: string, type: string, options?: string[]) =>
    ok(await api.post(`/api/boards/${board.id}/custom-fields`, { name, type, ...(options ? { options } : {}) }), 201);
  const fields = {
    text: await field('Notes', 'text'),
    number: await field('Points', 'number'),
    date: await field('Starts', 'date'),
    checkbox: await field('Blocked', 'checkbox'),
    list: await field('Priority', 'list', ['low', 'high']),
  };
  const card = ok(
    await api.post(`/api/lists/${todo.id}/cards`, {
      title: 'Everything happens to me',
      dueAt: '2030-01-31',
      fieldValues: { [fields.text.id]: 'some notes', [fields.number.id]: 3, [fields.date.id]: '2030-01-31' },
    }),
    201,
  );
  const setValue = async (fieldId: number, value: unknown) => ok(await api.put(`/api/cards/${card.id}/fields/${fieldId}`, { value }));
  await setValue(fields.date.id, '2030-02-01T09:30:00+01:00');
  await setValue(fields.checkbox.id, true);
  await setValue(fields.list.id, 'high');
  await setValue(fields.text.id, null);
  ok(await api.patch(`/api/custom-fields/${fields.number.id}`, { type: 'text' })); // 3 → "3": convertedCardIds
  ok(await api.patch(`/api/custom-fields/${fields.list.id}`, { options: ['low'] })); // "high" no longer fits: clearedCardIds
  ok(await api.del(`/api/custom-fields/${fields.checkbox.id}`), 204);

  // Cards.
  ok(await api.patch(`/api/cards/${card.id}`, { description: 'More to say' }));
  ok(await api.patch(`/api/cards/${card.id}`, { archived: true }));
  ok(await api.patch(`/api/cards/${card.id}`, { archived: false }));
  ok(await api.post(`/api/cards/${card.id}/move`, { listId: done.id }));
  const copy = ok(await api.post(`/api/cards/${card.id}/copy`, { title: 'A copy' }), 201);
  ok(await api.post(`/api/cards/${copy.id}/move`, { listId: away.id })); // to the other board: recorded on both
  const doomed = ok(await api.post(`/api/lists/${todo.id}/cards`, { title: 'Short-lived' }), 201);
  ok(await api.del(`/api/cards/${doomed.id}`), 204);

  // Labels and assignees.
  const label = ok(await api.post(`/api/boards/${board.id}/labels`, { name: 'Urgent', color: 'red' }), 201);
  ok(await api.patch(`/api/labels/${label.id}`, { color: 'orange' }));
  ok(await api.put(`/api/cards/${card.id}/labels/${label.id}`));
  ok(await api.del(`/api/cards/${card.id}/labels/${label.id}`), 204);
  ok(await api.put(`/api/cards/${card.id}/labels/${label.id}`));
  ok(await api.del(`/api/labels/${label.id}`), 204);
  ok(await api.put(`/api/cards/${card.id}/members/${member.id}`));
  ok(await api.del(`/api/cards/${card.id}/members/${member.id}`), 204);
  ok(await api.put(`/api/cards/${card.id}/members/${member.id}`));

  // Checklists and items.
  const checklist = ok(await api.post(`/api/cards/${card.id}/checklists`, { name: 'Steps' }), 201);
  ok(await api.patch(`/api/checklists/${checklist.id}`, { name: 'Next steps' }));
  const first = ok(await api.post(`/api/checklists/${checklist.id}/items`, { name: 'First' }), 201);
  const second = ok(await api.post(`/api/checklists/${checklist.id}/items`, { name: 'Second' }), 201);
  ok(await api.patch(`/api/items/${first.id}`, { checked: true }));
  ok(await api.post(`/api/items/${second.id}/convert`), 201); // card.created with fromItemId, then item.converted
  ok(await api.del(`/api/items/${first.id}`), 204);
  ok(await api.del(`/api/checklists/${checklist.id}`), 204);

  // Comments and attachments.
  const comment = ok(await asMember.post(`/api/cards/${card.id}/comments`, { text: 'On it' }), 201);
  ok(await asMember.patch(`/api/comments/${comment.id}`, { text: 'On it, really' }));
  ok(await asMember.del(`/api/comments/${comment.id}`), 204);
  const boundary = 'activity-types-boundary';
  const upload = await t.app.inject({
    method: 'POST',
    url: `/api/cards/${card.id}/attachments`,
    headers: { ...adminKey.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
  });
  const attachment = ok(upload, 201);
  ok(await api.del(`/api/attachments/${attachment.id}`), 204);

  // The member leaves (and is unassigned from the card); the other board goes.
  ok(await api.del(`/api/boards/${board.id}/members/${member.id}`), 204);

  const everything = async (boardId: number) => {
    const out: Record<string, unknown>[] = [];
    for (let before: number | null | undefined; before !== null; ) {
      const page = ok(await api.get(`/api/boards/${boardId}/activity?limit=200${before ? `&before=${before}` : ''}`));
      out.push(...page.activities);
      before = page.nextBefore;
    }
    return out.reverse();
  };
  const logged = { board: await everything(board.id), other: await everything(other.id) };
  // The streams from the start (Last-Event-ID 0 replays every event), then the other board's deletion live.
  const streams = {
    board: await SseClient.open(`${base}/api/boards/${board.id}/events?lastEventId=0`, adminKey.auth),
    other: await SseClient.open(`${base}/api/boards/${other.id}/events?lastEventId=0`, adminKey.auth),
  };
  expect([streams.board.status, streams.other.status]).toEqual([200, 200]);
  await streams.other.waitFor(logged.other.length, 20_000);
  ok(await api.del(`/api/boards/${other.id}`), 204);
  const streamed = {
    board: await streams.board.waitFor(logged.board.length, 20_000),
    other: await streams.other.waitFor(logged.other.length + 1, 20_000),
  };
  streams.board.close();
  streams.other.close();
  expect(streamed.other.at(-1)!.event).toBe('board.deleted');

  // The log's JSON is the stream's: nothing dropped, added or changed by the response schema. (Only the
  // order of keys may differ: the stream sends `data` in jsonb's order, the log in the documented one.)
  const fromStreams = new Map([...streamed.board, ...streamed.other].map((e) => [`${JSON.parse(e.data).boardId}:${e.id}`, e]));
  for (const activity of [...logged.board, ...logged.other]) {
    const event = fromStreams.get(`${activity.boardId}:${activity.id}`);
    expect(event, `${activity.type} ${activity.id} on the stream`).toBeDefined();
    expect(event!.event).toBe(activity.type);
    expect(JSON.parse(event!.data)).toStrictEqual(activity);
  }

  // Every activity, and the board.deleted only the stream carries, valid against the document's union.
  const document = ok(await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' }));
  const validate = activityValidator(document);
  const all = [...streamed.board, ...streamed.other].map((e) => JSON.parse(e.data) as { type: string; data: Record<string, any> });
  for (const activity of all) {
    expect(validate(activity) ? null : { activity, errors: validate.errors?.slice(0, 3) }, activity.type).toBeNull();
  }
  const recordable = ACTIVITY_TYPES.filter((type) => !(RETIRED_ACTIVITY_TYPES as readonly string[]).includes(type));
  expect([...new Set(all.map((a) => a.type))].sort()).toEqual([...recordable].sort());
  // …and the check bites: a field the type does not document, or one missing, or data of another type, is refused.
  const moved = all.find((a) => a.type === 'card.moved')!;
  const { card: _card, ...withoutCard } = moved.data;
  expect(validate({ ...moved, data: { ...moved.data, labelId: 1 } })).toBe(false);
  expect(validate({ ...moved, data: withoutCard })).toBe(false);
  expect(validate({ ...moved, type: 'card.updated' })).toBe(false);

  // The variants the union documents are among them.
  const ofType = (type: string) => all.filter((a) => a.type === type);
  expect(ofType('card.created').some((a) => typeof a.data.fromItemId === 'number')).toBe(true);
  expect(ofType('card.moved').some((a) => a.data.from.boardId === board.id && a.data.to.boardId === other.id)).toBe(true);
  expect(ofType('list.moved').some((a) => a.data.to.boardId === other.id)).toBe(true);
  expect(ofType('member.added').some((a) => a.data.invitation === true)).toBe(true);
  expect(ofType('card.field_set').map((a) => a.data.value)).toEqual(['2030-02-01T08:30:00.000Z', true, 'high', null]);
  expect(ofType('custom_field.updated').map((a) => [a.data.convertedCardIds, a.data.clearedCardIds])).toEqual([
    [[card.id], []],
    [[], [card.id]],
  ]);
  expect(ofType('member.removed')[0]!.data.unassignedCardIds).toEqual([card.id]);
  expect(ofType('board.updated')[0]!.data.changes).toEqual({ name: 'Activities, renamed', archived: false });
}, 120_000);

it('lists and validates a retired type that older logs hold (invitation.updated)', async () => {
  const admin = await makeUser(t.db);
  const key = await makeKey(t.db, admin.id);
  const api = client(t.app, key.auth);
  const board = ok(await api.post('/api/boards', { name: 'Old log' }), 201);
  // As the server recorded it until 2026-11-24, when re-inviting a pending address renewed the invitation.
  await t.db.prisma.activity.create({
    data: { boardId: board.id, type: 'invitation.updated', data: { email: 'old@example.com', role: 'observer' }, actorUserId: admin.id, actorKeyId: key.key.id, actorName: admin.name },
  });
  const [latest] = ok(await api.get(`/api/boards/${board.id}/activity`)).activities;
  expect(latest).toMatchObject({ type: 'invitation.updated', data: { email: 'old@example.com', role: 'observer' } });
  const document = ok(await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' }));
  expect(activityValidator(document)(latest)).toBe(true);
});
