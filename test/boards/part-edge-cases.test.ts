import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD_TEST_ENV, makeCard, makeTeam } from '../board-factories.js';
import { buildTestApp, type TestApp } from '../helper.js';

/** Findings of the #5 review, each held by the behaviour it should have. */
let t: TestApp;
beforeAll(async () => { t = await buildTestApp({ ...BOARD_TEST_ENV }); });
afterAll(async () => { await t?.close(); });
const words = (n: number) => Array.from({ length: n }, () => randomBytes(6).toString('base64').replace(/[^a-z]/gi, 'q').toLowerCase()).join(' ');

describe('card parts at the edges', () => {
  it('comments past the 1 MiB tsvector limit: never a 500 (observer can block the card)', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'C');
    for (let i = 0; i < 60; i++) {
      const res = await team.as.observer.post(`/api/cards/${card.id}/comments`, { text: words(2300).slice(0, 16384) });
      expect(res.statusCode, `comment #${i}: ${res.body}`).toBe(201);
    }
  }, 120_000);

  it('a text field value with a lone surrogate is not a 500', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'C');
    const f = (await team.as.admin.post(`/api/boards/${team.board.id}/custom-fields`, { name: 't', type: 'text' })).json();
    const res = await t.app.inject({ method: 'PUT', url: `/api/cards/${card.id}/fields/${f.id}`, headers: { ...team.keys.admin.auth, 'content-type': 'application/json' }, payload: '{"value":"\\ud800"}' });
    expect(res.statusCode, res.body).toBeLessThan(500);
  });

  it('a date-time whose UTC form leaves years 0000-9999 is 400; stored date-times can be sent back and survive a rename', async () => {
    const team = await makeTeam(t);
    const a = team.as.admin;
    const card = await makeCard(a, team.list.id, 'C');
    const f = (await a.post(`/api/boards/${team.board.id}/custom-fields`, { name: 'd', type: 'date' })).json();
    for (const value of ['9999-12-31T23:59:59-05:00', '0000-01-01T00:00:00+01:00']) {
      const res = await a.put(`/api/cards/${card.id}/fields/${f.id}`, { value });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatch(/^value:/);
    }
    const set = await a.put(`/api/cards/${card.id}/fields/${f.id}`, { value: '2030-06-01T12:00:00+02:00' });
    const stored = set.json().fieldValues[String(f.id)];
    expect(stored).toBe('2030-06-01T10:00:00.000Z');
    const again = await a.put(`/api/cards/${card.id}/fields/${f.id}`, { value: stored });
    expect(again.statusCode).toBe(200);
    expect(again.json().version).toBe(set.json().version); // the same value: no change
    const renamed = await a.patch(`/api/custom-fields/${f.id}`, { name: 'renamed' });
    expect(renamed.statusCode).toBe(200);
    expect((await a.get(`/api/cards/${card.id}`)).json().fieldValues[String(f.id)]).toBe(stored);
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

  it('limit and before take plain digits only', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'C');
    for (const bad of ['1e2', '0x10', '%205', '-1', '1.5']) {
      expect((await team.as.admin.get(`/api/cards/${card.id}/comments?limit=${bad}`)).statusCode).toBe(400);
      expect((await team.as.admin.get(`/api/boards/${team.board.id}/activity?before=${bad}`)).statusCode).toBe(400);
    }
  });

  it('"0050-01-01" is a valid date value', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'C');
    const f = (await team.as.admin.post(`/api/boards/${team.board.id}/custom-fields`, { name: 'd', type: 'date' })).json();
    expect((await team.as.admin.put(`/api/cards/${card.id}/fields/${f.id}`, { value: '0050-01-01' })).statusCode).toBe(200);
  });

  it('text -> number keeps only lossless conversions ("0x1A" is not 26)', async () => {
    const team = await makeTeam(t);
    const a = team.as.admin;
    const card = await makeCard(a, team.list.id, 'C');
    const f = (await a.post(`/api/boards/${team.board.id}/custom-fields`, { name: 'x', type: 'text' })).json();
    await a.put(`/api/cards/${card.id}/fields/${f.id}`, { value: '0x1A' });
    await a.patch(`/api/custom-fields/${f.id}`, { type: 'number' });
    expect((await a.get(`/api/cards/${card.id}`)).json().fieldValues[String(f.id)]).not.toBe(26);
  });
});
