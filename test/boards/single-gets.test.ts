import { describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  client,
  expectError,
  expectQueryError,
  expectStatus,
  fetchBoard,
  getCard,
  makeAttachment,
  makeChecklist,
  makeItem,
  makeLabel,
  makeList,
  makeTeam,
} from '../board-factories.js';
import { makeBoard, makeKey } from '../factories.js';
import { useTestApp } from '../helper.js';

/**
 * GET for one list, label, checklist, item and attachment (metadata): the objects as presented
 * everywhere else, for any role and read keys, 404 outside reach.
 */
const t = useTestApp(BOARD_TEST_ENV);

/** A team whose board has one of each thing, made through the API. */
async function world() {
  const team = await makeTeam(t, { cards: 1 });
  const card = team.cards[0];
  const label = await makeLabel(team.as.admin, team.board.id, 'Urgent', 'red');
  const checklist = await makeChecklist(team.as.admin, card.id, 'Steps');
  const item = await makeItem(team.as.admin, checklist.id, 'First', true);
  await makeItem(team.as.admin, checklist.id, 'Second');
  const attachment = await makeAttachment(t.app, team.keys.admin.auth, card.id, 'notes.txt', 'some notes');
  const urls = {
    list: `/api/lists/${team.list.id}`,
    label: `/api/labels/${label.id}`,
    checklist: `/api/checklists/${checklist.id}`,
    item: `/api/items/${item.id}`,
    attachment: `/api/attachments/${attachment.id}`,
  };
  return { team, card, label, checklist, item, attachment, urls };
}

describe('the objects', () => {
  it('are the ones the board fetch, the full card and the create answers present', async () => {
    const w = await world();
    const board = await fetchBoard(w.team.as.admin, w.team.board.id);
    const { cards: _cards, ...listInBoard } = board.lists[0];
    const full = await getCard(w.team.as.admin, w.card.id);
    const api = w.team.as.observer;
    const got = async (url: string) => {
      const res = await api.get(url);
      expectStatus(res, 200);
      return res.json();
    };
    expect(await got(w.urls.list)).toEqual(listInBoard);
    expect(await got(w.urls.label)).toEqual(board.labels[0]);
    expect(await got(w.urls.label)).toEqual(w.label);
    expect(await got(w.urls.checklist)).toEqual(full.checklists[0]);
    expect((await got(w.urls.checklist)).items.map((i: any) => i.name)).toEqual(['First', 'Second']);
    expect(await got(w.urls.item)).toEqual(full.checklists[0].items[0]);
    expect(await got(w.urls.item)).toEqual({ ...w.item, checked: true });
    expect(await got(w.urls.attachment)).toEqual(full.attachments[0]);
    expect(await got(w.urls.attachment)).toEqual({
      id: w.attachment.id,
      cardId: w.card.id,
      filename: 'notes.txt',
      mimeType: 'text/plain',
      size: 10,
      createdAt: w.attachment.createdAt,
      url: null,
    });
  });

  it('show changes: a renamed label, a moved item, an archived list', async () => {
    const w = await world();
    const api = w.team.as.member;
    expectStatus(await api.patch(w.urls.label, { name: 'Later', color: null }), 200);
    expect((await api.get(w.urls.label)).json()).toMatchObject({ name: 'Later', color: null });
    expectStatus(await api.patch(w.urls.item, { position: 1 }), 200);
    expect((await api.get(w.urls.item)).json().position).toBe(1);
    expect((await api.get(w.urls.checklist)).json().items.map((i: any) => i.name)).toEqual(['Second', 'First']);
    const list = await makeList(api, w.team.board.id, 'Old');
    expectStatus(await api.patch(`/api/lists/${list.id}`, { archived: true }), 200);
    expect((await api.get(`/api/lists/${list.id}`)).json()).toMatchObject({ id: list.id, name: 'Old', archived: true });
  });
});

describe('who may read them', () => {
  it('every role and a read key: 200', async () => {
    const w = await world();
    const readKey = client(t.app, (await makeKey(t.db, w.team.observer.id, { permission: 'read' })).auth);
    for (const api of [w.team.as.admin, w.team.as.member, w.team.as.observer, readKey]) {
      for (const url of Object.values(w.urls)) expectStatus(await api.get(url), 200);
    }
  });

  it('a stranger, or a key limited to other boards: 404, the same as for an id that does not exist', async () => {
    const w = await world();
    const elsewhere = await makeBoard(t.db, w.team.admin.id);
    const limited = client(t.app, (await makeKey(t.db, w.team.admin.id, { boardIds: [elsewhere.id] })).auth);
    for (const api of [w.team.as.stranger, limited]) {
      for (const [what, url] of Object.entries(w.urls)) expectError(await api.get(url), 404, new RegExp(`^${what}: not found$`));
    }
    for (const what of ['lists', 'labels', 'checklists', 'items', 'attachments']) {
      expectError(await w.team.as.admin.get(`/api/${what}/2147483000`), 404);
    }
  });

  it('a key limited to the board: 200', async () => {
    const w = await world();
    const limited = client(t.app, (await makeKey(t.db, w.team.member.id, { boardIds: [w.team.board.id], permission: 'read' })).auth);
    for (const url of Object.values(w.urls)) expectStatus(await limited.get(url), 200);
  });

  it('after the board member leaves: 404', async () => {
    const w = await world();
    expectStatus(await w.team.as.admin.del(`/api/boards/${w.team.board.id}/members/${w.team.observer.id}`), 204);
    for (const url of Object.values(w.urls)) expectError(await w.team.as.observer.get(url), 404);
  });

  it('after deletion: 404', async () => {
    const w = await world();
    const api = w.team.as.admin;
    expectStatus(await api.del(w.urls.attachment), 204);
    expectStatus(await api.del(w.urls.item), 204);
    expectStatus(await api.del(w.urls.checklist), 204);
    expectStatus(await api.del(w.urls.label), 204);
    for (const [what, url] of Object.entries(w.urls)) {
      if (what !== 'list') expectError(await api.get(url), 404);
    }
  });

  it('no credential: 401; a malformed id: 400', async () => {
    const w = await world();
    for (const url of Object.values(w.urls)) expectError(await t.app.inject({ method: 'GET', url }), 401);
    for (const what of ['lists', 'labels', 'checklists', 'items', 'attachments']) {
      expectQueryError(await w.team.as.admin.get(`/api/${what}/abc`), 'params.id');
    }
  });
});
