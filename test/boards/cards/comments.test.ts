import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  boardActivities,
  client,
  expectError,
  expectFieldError,
  expectQueryError,
  expectNoContent,
  expectStatus,
  fetchBoard,
  getCard,
  lastActivity,
  makeCard,
  makeComment,
  makeTeam,
} from '../../board-factories.js';
import { makeBoard, makeKey } from '../../factories.js';
import { useTestApp } from '../../helper.js';

/** Comments on cards: any role may comment; authors edit, authors and admins delete (SPEC §3, comments). */
const t = useTestApp(BOARD_TEST_ENV);

/** `n` random lower-case words, text no stemmer folds together. */
const words = (n: number) => Array.from({ length: n }, () => randomBytes(6).toString('base64').replace(/[^a-z]/gi, 'q').toLowerCase()).join(' ');

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('POST /api/cards/{id}/comments', () => {
  it('adds a comment (201 with id, cardId, text, author, createdAt, updatedAt, importedAt null); the card counts it', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const res = await team.as.member.post(`/api/cards/${card.id}/comments`, { text: 'Looks good' });
    expectStatus(res, 201);
    const comment = res.json();
    expect(comment).toEqual({
      id: expect.any(Number),
      cardId: card.id,
      text: 'Looks good',
      author: { userId: team.member.id, name: team.member.name },
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      importedAt: null,
    });
    const full = await getCard(team.as.admin, card.id);
    expect(full.commentCount).toBe(1);
    expect(full.comments).toEqual([comment]);
    expect(full.version).toBeGreaterThan(card.version);
    expect((await fetchBoard(team.as.admin, team.board.id)).lists[0].cards[0].commentCount).toBe(1);
  });

  it('lets every role comment, an observer included', async () => {
    const team = await makeTeam(t, { cards: 1 });
    for (const [who, api] of [['admin', team.as.admin], ['member', team.as.member], ['observer', team.as.observer]] as const) {
      const comment = await makeComment(api, team.cards[0].id, `by ${who}`);
      expect(comment.author.userId).toBe(team[who].id);
    }
    expect((await getCard(team.as.admin, team.cards[0].id)).commentCount).toBe(3);
  });

  it('records comment.created with cardId, commentId and the comment', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const comment = await makeComment(team.as.observer, team.cards[0].id, 'Watching');
    expect(await lastActivity(team.as.admin, team.board.id)).toMatchObject({
      type: 'comment.created',
      actor: { userId: team.observer.id },
      data: { cardId: team.cards[0].id, commentId: comment.id, comment },
    });
  });

  it('takes texts of 1 and 16384 characters', async () => {
    const team = await makeTeam(t, { cards: 1 });
    expect((await makeComment(team.as.admin, team.cards[0].id, 'x')).text).toBe('x');
    expect((await makeComment(team.as.admin, team.cards[0].id, 'y'.repeat(16_384))).text).toHaveLength(16_384);
  });

  it.each([
    ['a missing text', {}, 'text'],
    ['an empty text', { text: '' }, 'text'],
    ['a text of 16385 characters', { text: 'x'.repeat(16_385) }, 'text'],
    ['a text that is not a string', { text: 42 }, 'text'],
    ['an unknown field', { text: 'x', author: 1 }, 'author'],
  ])('refuses %s with 400 naming the field', async (_what, payload, field) => {
    const team = await makeTeam(t, { cards: 1 });
    expectFieldError(await team.as.admin.post(`/api/cards/${team.cards[0].id}/comments`, payload), field);
    expect((await getCard(team.as.admin, team.cards[0].id)).commentCount).toBe(0);
  });

  it('is 403 to a read-only key, 404 to a non-member, a key limited elsewhere and for a missing card', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const url = `/api/cards/${team.cards[0].id}/comments`;
    const readOnly = client(t.app, (await makeKey(t.db, team.observer.id, { permission: 'read' })).auth);
    expectError(await readOnly.post(url, { text: 'x' }), 403);
    expectError(await team.as.stranger.post(url, { text: 'x' }), 404);
    const other = await makeBoard(t.db, team.admin.id);
    const limited = client(t.app, (await makeKey(t.db, team.admin.id, { boardIds: [other.id] })).auth);
    expectError(await limited.post(url, { text: 'x' }), 404);
    expectError(await team.as.admin.post('/api/cards/999999/comments', { text: 'x' }), 404);
    expectError(await client(t.app, {}).post(url, { text: 'x' }), 401);
    expect((await getCard(team.as.admin, team.cards[0].id)).commentCount).toBe(0);
  });

  it('comments past the 1 MiB tsvector limit: never a 500 (observer can block the card)', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'C');
    for (let i = 0; i < 60; i++) {
      const res = await team.as.observer.post(`/api/cards/${card.id}/comments`, { text: words(2300).slice(0, 16384) });
      expect(res.statusCode, `comment #${i}: ${res.body}`).toBe(201);
    }
  }, 120_000);
});

describe('comments on the full card', () => {
  it('shows the newest 50, newest first, and counts them all', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const made = [];
    for (let i = 0; i < 55; i++) made.push(await makeComment(team.as.member, team.cards[0].id, `comment ${i}`));
    const full = await getCard(team.as.admin, team.cards[0].id);
    expect(full.commentCount).toBe(55);
    expect(full.comments).toHaveLength(50);
    expect(full.comments).toEqual(made.slice(5).reverse());
    expect((await fetchBoard(team.as.admin, team.board.id)).lists[0].cards[0].commentCount).toBe(55);
  });
});

describe('GET /api/cards/{id}/comments', () => {
  it('lists comments newest first with nextBefore; paging walks every comment exactly once', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const made = [];
    for (let i = 0; i < 7; i++) made.push(await makeComment(team.as.member, team.cards[0].id, `c${i}`));
    const all = await team.as.observer.get(`/api/cards/${team.cards[0].id}/comments`);
    expectStatus(all, 200);
    expect(all.json()).toEqual({ comments: [...made].reverse(), nextBefore: null });

    const seen: number[] = [];
    let before: number | null = null;
    let pages = 0;
    do {
      const res = await team.as.observer.get(`/api/cards/${team.cards[0].id}/comments?limit=3${before === null ? '' : `&before=${before}`}`);
      expectStatus(res, 200);
      const body = res.json();
      expect(body.comments.length).toBeLessThanOrEqual(3);
      seen.push(...body.comments.map((c: any) => c.id));
      before = body.nextBefore;
      pages++;
    } while (before !== null && pages < 10);
    expect(seen).toEqual(made.map((c) => c.id).reverse());
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it('defaults to 50 and takes limits of 1 and 100', async () => {
    const team = await makeTeam(t, { cards: 1 });
    for (let i = 0; i < 52; i++) await makeComment(team.as.member, team.cards[0].id, `c${i}`);
    const def = (await team.as.admin.get(`/api/cards/${team.cards[0].id}/comments`)).json();
    expect(def.comments).toHaveLength(50);
    expect(def.nextBefore).not.toBeNull();
    const rest = (await team.as.admin.get(`/api/cards/${team.cards[0].id}/comments?before=${def.nextBefore}`)).json();
    expect(rest.comments).toHaveLength(2);
    expect(rest.nextBefore).toBeNull();
    expect((await team.as.admin.get(`/api/cards/${team.cards[0].id}/comments?limit=1`)).json().comments).toHaveLength(1);
    const hundred = (await team.as.admin.get(`/api/cards/${team.cards[0].id}/comments?limit=100`)).json();
    expect(hundred.comments).toHaveLength(52);
    expect(hundred.nextBefore).toBeNull();
  });

  it.each(['limit=101', 'limit=0', 'limit=-1', 'limit=abc', 'limit=1.5'])('refuses %s with 400 naming limit', async (query) => {
    const team = await makeTeam(t, { cards: 1 });
    expectQueryError(await team.as.admin.get(`/api/cards/${team.cards[0].id}/comments?${query}`), 'limit');
  });

  it('refuses a malformed before cursor with 400', async () => {
    const team = await makeTeam(t, { cards: 1 });
    expectError(await team.as.admin.get(`/api/cards/${team.cards[0].id}/comments?before=abc`), 400, /^(querystring\.)?before: /);
  });

  it('is 404 to a stranger and for a missing card', async () => {
    const team = await makeTeam(t, { cards: 1 });
    expectError(await team.as.stranger.get(`/api/cards/${team.cards[0].id}/comments`), 404);
    expectError(await team.as.admin.get('/api/cards/999999/comments'), 404);
  });

  it("shows only that card's comments", async () => {
    const team = await makeTeam(t, { cards: 2 });
    const mine = await makeComment(team.as.admin, team.cards[0].id, 'mine');
    await makeComment(team.as.admin, team.cards[1].id, 'theirs');
    expect((await team.as.admin.get(`/api/cards/${team.cards[0].id}/comments`)).json().comments).toEqual([mine]);
  });
});

describe('PATCH /api/comments/{id}', () => {
  it('lets the author edit (200 with the comment); comment.updated; the card shows the new text', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const comment = await makeComment(team.as.observer, team.cards[0].id, 'First draft');
    const before = await getCard(team.as.admin, team.cards[0].id);
    const res = await team.as.observer.patch(`/api/comments/${comment.id}`, { text: 'Second draft' });
    expectStatus(res, 200);
    const edited = res.json();
    expect(edited).toMatchObject({ id: comment.id, cardId: team.cards[0].id, text: 'Second draft', author: comment.author, createdAt: comment.createdAt });
    expect(Date.parse(edited.updatedAt)).toBeGreaterThanOrEqual(Date.parse(comment.updatedAt));
    const after = await getCard(team.as.admin, team.cards[0].id);
    expect(after.comments).toEqual([edited]);
    expect(after.version).toBeGreaterThan(before.version);
    expect(await lastActivity(team.as.admin, team.board.id)).toMatchObject({ type: 'comment.updated', data: { cardId: team.cards[0].id, commentId: comment.id, comment: edited, previousText: 'First draft' } });
  });

  it("is refused to anyone but the author (403), a board admin included; the text stays", async () => {
    const team = await makeTeam(t, { cards: 1 });
    const comment = await makeComment(team.as.member, team.cards[0].id, 'Mine');
    expectError(await team.as.admin.patch(`/api/comments/${comment.id}`, { text: 'x' }), 403);
    expectError(await team.as.observer.patch(`/api/comments/${comment.id}`, { text: 'x' }), 403);
    expectError(await team.as.stranger.patch(`/api/comments/${comment.id}`, { text: 'x' }), 404);
    expectError(await team.as.admin.patch('/api/comments/999999', { text: 'x' }), 404);
    const readOnly = client(t.app, (await makeKey(t.db, team.member.id, { permission: 'read' })).auth);
    expectError(await readOnly.patch(`/api/comments/${comment.id}`, { text: 'x' }), 403);
    expect((await getCard(team.as.admin, team.cards[0].id)).comments).toEqual([comment]);
  });

  it('refuses an empty text or one of 16385 characters with 400 naming text', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const comment = await makeComment(team.as.member, team.cards[0].id, 'Mine');
    expectFieldError(await team.as.member.patch(`/api/comments/${comment.id}`, { text: '' }), 'text');
    expectFieldError(await team.as.member.patch(`/api/comments/${comment.id}`, { text: 'x'.repeat(16_385) }), 'text');
    expect((await getCard(team.as.admin, team.cards[0].id)).comments).toEqual([comment]);
  });
});

describe('DELETE /api/comments/{id}', () => {
  it('lets the author delete (204): the count drops, comment.deleted is recorded', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const keep = await makeComment(team.as.admin, team.cards[0].id, 'keep');
    const gone = await makeComment(team.as.observer, team.cards[0].id, 'gone');
    const before = await getCard(team.as.admin, team.cards[0].id);
    expectNoContent(await team.as.observer.del(`/api/comments/${gone.id}`));
    const after = await getCard(team.as.admin, team.cards[0].id);
    expect(after.commentCount).toBe(1);
    expect(after.comments).toEqual([keep]);
    expect(after.version).toBeGreaterThan(before.version);
    const acts = await boardActivities(team.as.admin, team.board.id, 5);
    expect(acts[0]).toMatchObject({ type: 'comment.deleted', data: { cardId: team.cards[0].id, commentId: gone.id } });
    expectError(await team.as.observer.del(`/api/comments/${gone.id}`), 404);
    expectError(await team.as.observer.patch(`/api/comments/${gone.id}`, { text: 'x' }), 404);
  });

  it("lets a board admin delete someone else's comment", async () => {
    const team = await makeTeam(t, { cards: 1 });
    const comment = await makeComment(team.as.member, team.cards[0].id, 'theirs');
    expectNoContent(await team.as.admin.del(`/api/comments/${comment.id}`));
    expect((await getCard(team.as.admin, team.cards[0].id)).commentCount).toBe(0);
  });

  it("refuses another member or observer (403) and a stranger (404); the comment stays", async () => {
    const team = await makeTeam(t, { cards: 1 });
    const comment = await makeComment(team.as.admin, team.cards[0].id, 'admin says');
    expectError(await team.as.member.del(`/api/comments/${comment.id}`), 403);
    expectError(await team.as.observer.del(`/api/comments/${comment.id}`), 403);
    expectError(await team.as.stranger.del(`/api/comments/${comment.id}`), 404);
    expectError(await team.as.admin.del('/api/comments/999999'), 404);
    expect((await getCard(team.as.admin, team.cards[0].id)).comments).toEqual([comment]);
  });
});

describe('comments under concurrent requests', () => {
  it('ten comments posted at once are all counted and listed', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => team.as.observer.post(`/api/cards/${team.cards[0].id}/comments`, { text: `c${i}` })));
    for (const r of results) expectStatus(r, 201);
    const full = await getCard(team.as.admin, team.cards[0].id);
    expect(full.commentCount).toBe(10);
    const ids = full.comments.map((c: any) => c.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(ids.sort()).toEqual(results.map((r) => r.json().id).sort());
  });

  it("a member removed from the board loses their comments' editing (404), an admin may still delete them", async () => {
    const team = await makeTeam(t, { cards: 1 });
    const comment = await makeComment(team.as.member, team.cards[0].id, 'before leaving');
    expectNoContent(await team.as.admin.del(`/api/boards/${team.board.id}/members/${team.member.id}`));
    expectError(await team.as.member.patch(`/api/comments/${comment.id}`, { text: 'x' }), 404);
    expect((await getCard(team.as.admin, team.cards[0].id)).comments).toEqual([comment]);
    expectNoContent(await team.as.admin.del(`/api/comments/${comment.id}`));
  });
});
