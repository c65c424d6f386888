import { describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  CARD_SUMMARY_KEYS,
  type Client,
  client,
  expectError,
  expectQueryError,
  expectNoContent,
  expectStatus,
  fetchBoard,
  getCard,
  idsOf,
  makeCard,
  makeChecklist,
  makeComment,
  makeItem,
  makeList,
  makeTeam,
  summaryOf,
} from '../board-factories.js';
import { makeBoard, makeKey } from '../factories.js';
import { useTestApp } from '../helper.js';

/** Card search: full text over titles, descriptions, checklist items and comments (SPEC §3, search). */
const t = useTestApp(BOARD_TEST_ENV);

async function search(api: Client, boardId: number, q: string, extra = ''): Promise<any[]> {
  const res = await api.get(`/api/boards/${boardId}/search?q=${encodeURIComponent(q)}${extra}`);
  expectStatus(res, 200);
  const body = res.json();
  expect(Object.keys(body)).toEqual(['cards']);
  return body.cards;
}
const sortedIds = (cards: { id: number }[]) => idsOf(cards).sort((a, b) => a - b);

describe('GET /api/boards/{id}/search', () => {
  it('finds cards by title: card summaries plus a numeric score, best first', async () => {
    const team = await makeTeam(t);
    const hit = await makeCard(team.as.admin, team.list.id, 'Fix the login page', 'Users cannot sign in');
    await makeCard(team.as.admin, team.list.id, 'Write release notes');
    const cards = await search(team.as.observer, team.board.id, 'login');
    expect(idsOf(cards)).toEqual([hit.id]);
    expect(Object.keys(cards[0]).sort()).toEqual([...CARD_SUMMARY_KEYS, 'score'].sort());
    expect(typeof cards[0].score).toBe('number');
    const { score: _s, ...summary } = cards[0];
    expect(summary).toEqual(summaryOf(await getCard(team.as.admin, hit.id)));
  });

  it('stems English words: "run" finds "running", "tests" finds "testing"', async () => {
    const team = await makeTeam(t);
    const running = await makeCard(team.as.admin, team.list.id, 'Running the migrations');
    const testing = await makeCard(team.as.admin, team.list.id, 'Testing strategy');
    expect(idsOf(await search(team.as.admin, team.board.id, 'run'))).toEqual([running.id]);
    expect(idsOf(await search(team.as.admin, team.board.id, 'tests'))).toEqual([testing.id]);
  });

  it('searches descriptions, checklist item names and comments', async () => {
    const team = await makeTeam(t);
    const byDescription = await makeCard(team.as.admin, team.list.id, 'First', 'The kangaroo escaped');
    const byItem = await makeCard(team.as.admin, team.list.id, 'Second');
    await makeItem(team.as.admin, (await makeChecklist(team.as.admin, byItem.id)).id, 'Feed the kangaroo');
    const byComment = await makeCard(team.as.admin, team.list.id, 'Third');
    await makeComment(team.as.observer, byComment.id, 'Saw a kangaroo today');
    await makeCard(team.as.admin, team.list.id, 'Fourth', 'Nothing to see');
    const cards = await search(team.as.admin, team.board.id, 'kangaroo');
    expect(sortedIds(cards)).toEqual(sortedIds([byDescription, byItem, byComment]));
  });

  it('ranks a title match above a card whose only match is in a comment; scores do not increase', async () => {
    const team = await makeTeam(t);
    const inComment = await makeCard(team.as.admin, team.list.id, 'Something else');
    await makeComment(team.as.admin, inComment.id, 'what about the giraffe');
    const inTitle = await makeCard(team.as.admin, team.list.id, 'Giraffe enclosure');
    const cards = await search(team.as.admin, team.board.id, 'giraffe');
    expect(idsOf(cards)).toEqual([inTitle.id, inComment.id]);
    expect(cards[0].score).toBeGreaterThan(cards[1].score);
  });

  it('returns cards best first: scores never increase', async () => {
    const team = await makeTeam(t);
    await makeCard(team.as.admin, team.list.id, 'penguin', 'penguin penguin');
    await makeCard(team.as.admin, team.list.id, 'other', 'a penguin');
    const c = await makeCard(team.as.admin, team.list.id, 'third');
    await makeComment(team.as.admin, c.id, 'penguin');
    await makeCard(team.as.admin, team.list.id, 'penguin colony');
    const cards = await search(team.as.admin, team.board.id, 'penguin');
    expect(cards).toHaveLength(4);
    for (let i = 1; i < cards.length; i++) expect(cards[i - 1].score).toBeGreaterThanOrEqual(cards[i].score);
  });

  it('takes web-search syntax: "quoted phrase", -excluded and or', async () => {
    const team = await makeTeam(t);
    const redApple = await makeCard(team.as.admin, team.list.id, 'red apple pie');
    const appleRed = await makeCard(team.as.admin, team.list.id, 'apple that is red');
    const green = await makeCard(team.as.admin, team.list.id, 'green apple');
    const pear = await makeCard(team.as.admin, team.list.id, 'ripe pear');
    expect(sortedIds(await search(team.as.admin, team.board.id, 'apple'))).toEqual(sortedIds([redApple, appleRed, green]));
    expect(idsOf(await search(team.as.admin, team.board.id, '"red apple"'))).toEqual([redApple.id]);
    expect(sortedIds(await search(team.as.admin, team.board.id, 'apple -red'))).toEqual([green.id]);
    expect(sortedIds(await search(team.as.admin, team.board.id, 'green or pear'))).toEqual(sortedIds([green, pear]));
    expect(sortedIds(await search(team.as.admin, team.board.id, 'apple red'))).toEqual(sortedIds([redApple, appleRed]));
  });

  it('answers an empty list when nothing matches, and survives queries of punctuation', async () => {
    const team = await makeTeam(t, { cards: 2 });
    expect(await search(team.as.admin, team.board.id, 'zebra')).toEqual([]);
    for (const q of ['!!!', '"', '-', 'or', "'; drop table", '&|:*()']) await search(team.as.admin, team.board.id, q);
  });

  it("finds only the board's own cards", async () => {
    const team = await makeTeam(t);
    const mine = await makeCard(team.as.admin, team.list.id, 'Shared word octopus');
    const other = await makeBoard(t.db, team.admin.id);
    const otherList = await makeList(team.as.admin, other.id, 'L');
    const theirs = await makeCard(team.as.admin, otherList.id, 'Shared word octopus');
    expect(idsOf(await search(team.as.admin, team.board.id, 'octopus'))).toEqual([mine.id]);
    expect(idsOf(await search(team.as.admin, other.id, 'octopus'))).toEqual([theirs.id]);
  });

  it('defaults to 20 results and takes limits 1..100', async () => {
    const team = await makeTeam(t);
    for (let i = 0; i < 23; i++) await makeCard(team.as.admin, team.list.id, `walrus ${i}`);
    expect(await search(team.as.admin, team.board.id, 'walrus')).toHaveLength(20);
    expect(await search(team.as.admin, team.board.id, 'walrus', '&limit=5')).toHaveLength(5);
    expect(await search(team.as.admin, team.board.id, 'walrus', '&limit=1')).toHaveLength(1);
    expect(await search(team.as.admin, team.board.id, 'walrus', '&limit=100')).toHaveLength(23);
  });

  it.each([
    ['a missing q', '', 'q'],
    ['an empty q', '?q=', 'q'],
    ['a q of 201 characters', `?q=${'a'.repeat(201)}`, 'q'],
    ['limit 0', '?q=x&limit=0', 'limit'],
    ['limit 101', '?q=x&limit=101', 'limit'],
    ['limit abc', '?q=x&limit=abc', 'limit'],
  ])('refuses %s with 400 naming the parameter', async (_what, query, field) => {
    const team = await makeTeam(t);
    expectQueryError(await team.as.admin.get(`/api/boards/${team.board.id}/search${query}`), field);
  });

  it('takes a q of 200 characters', async () => {
    const team = await makeTeam(t);
    await search(team.as.admin, team.board.id, 'a'.repeat(200));
    await search(team.as.admin, team.board.id, Array.from({ length: 40 }, () => 'word').join(' '));
  });

  it('is open to every role, 404 to a stranger, a key limited elsewhere and for a missing board', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'Hedgehog');
    for (const api of [team.as.admin, team.as.member, team.as.observer]) expect(idsOf(await search(api, team.board.id, 'hedgehog'))).toEqual([card.id]);
    const readOnly = client(t.app, (await makeKey(t.db, team.observer.id, { permission: 'read' })).auth);
    expect(idsOf(await search(readOnly, team.board.id, 'hedgehog'))).toEqual([card.id]);
    expectError(await team.as.stranger.get(`/api/boards/${team.board.id}/search?q=hedgehog`), 404);
    const other = await makeBoard(t.db, team.admin.id);
    const limited = client(t.app, (await makeKey(t.db, team.admin.id, { boardIds: [other.id] })).auth);
    expectError(await limited.get(`/api/boards/${team.board.id}/search?q=hedgehog`), 404);
    expectError(await team.as.admin.get('/api/boards/999999/search?q=hedgehog'), 404);
    expectError(await client(t.app, {}).get(`/api/boards/${team.board.id}/search?q=hedgehog`), 401);
  });
});

describe('search and archived cards', () => {
  it('leaves out archived cards and cards of archived lists unless archived=true, then finds both kinds', async () => {
    const team = await makeTeam(t);
    const active = await makeCard(team.as.admin, team.list.id, 'Badger active');
    const archived = await makeCard(team.as.admin, team.list.id, 'Badger archived');
    expectStatus(await team.as.admin.patch(`/api/cards/${archived.id}`, { archived: true }), 200);
    const shelf = await makeList(team.as.admin, team.board.id, 'Shelf');
    const inArchivedList = await makeCard(team.as.admin, shelf.id, 'Badger shelved');
    expectStatus(await team.as.admin.patch(`/api/lists/${shelf.id}`, { archived: true }), 200);

    expect(idsOf(await search(team.as.admin, team.board.id, 'badger'))).toEqual([active.id]);
    expect(idsOf(await search(team.as.admin, team.board.id, 'badger', '&archived=false'))).toEqual([active.id]);
    const all = await search(team.as.admin, team.board.id, 'badger', '&archived=true');
    expect(sortedIds(all)).toEqual(sortedIds([active, archived, inArchivedList]));
    expect(all.find((c) => c.id === archived.id).archived).toBe(true);
  });
});

describe('search sees changes at once', () => {
  it('after a title edit, finds the card by the new word and not the old', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'Alpaca');
    expect(idsOf(await search(team.as.admin, team.board.id, 'alpaca'))).toEqual([card.id]);
    expectStatus(await team.as.admin.patch(`/api/cards/${card.id}`, { title: 'Llama' }), 200);
    expect(await search(team.as.admin, team.board.id, 'alpaca')).toEqual([]);
    expect(idsOf(await search(team.as.admin, team.board.id, 'llama'))).toEqual([card.id]);
    expectStatus(await team.as.admin.patch(`/api/cards/${card.id}`, { description: 'with a vicuna' }), 200);
    expect(idsOf(await search(team.as.admin, team.board.id, 'vicuna'))).toEqual([card.id]);
  });

  it('after a comment is edited or deleted, no longer finds the card by it', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'Plain');
    const comment = await makeComment(team.as.member, card.id, 'mongoose spotted');
    expect(idsOf(await search(team.as.admin, team.board.id, 'mongoose'))).toEqual([card.id]);
    expectStatus(await team.as.member.patch(`/api/comments/${comment.id}`, { text: 'meerkat spotted' }), 200);
    expect(await search(team.as.admin, team.board.id, 'mongoose')).toEqual([]);
    expect(idsOf(await search(team.as.admin, team.board.id, 'meerkat'))).toEqual([card.id]);
    expectNoContent(await team.as.member.del(`/api/comments/${comment.id}`));
    expect(await search(team.as.admin, team.board.id, 'meerkat')).toEqual([]);
  });

  it('after a checklist item is renamed or deleted, follows suit', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'Plain');
    const list = await makeChecklist(team.as.admin, card.id);
    const item = await makeItem(team.as.admin, list.id, 'buy flamingo food');
    const other = await makeItem(team.as.admin, list.id, 'clean the heron pond');
    expect(idsOf(await search(team.as.admin, team.board.id, 'flamingo'))).toEqual([card.id]);
    expectStatus(await team.as.admin.patch(`/api/items/${item.id}`, { name: 'buy pelican food' }), 200);
    expect(await search(team.as.admin, team.board.id, 'flamingo')).toEqual([]);
    expect(idsOf(await search(team.as.admin, team.board.id, 'pelican'))).toEqual([card.id]);
    expectNoContent(await team.as.admin.del(`/api/items/${item.id}`));
    expect(await search(team.as.admin, team.board.id, 'pelican')).toEqual([]);
    expect(idsOf(await search(team.as.admin, team.board.id, 'heron'))).toEqual([card.id]);
    expect(other.id).toBeGreaterThan(0);
  });

  it('after a checklist is deleted, no longer finds the card by its items', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'Plain');
    const list = await makeChecklist(team.as.admin, card.id);
    await makeItem(team.as.admin, list.id, 'clean the heron pond');
    expect(idsOf(await search(team.as.admin, team.board.id, 'heron'))).toEqual([card.id]);
    expectNoContent(await team.as.admin.del(`/api/checklists/${list.id}`));
    expect(await search(team.as.admin, team.board.id, 'heron')).toEqual([]);
  });

  it('finds a converted item as the new card, and a card moved to another board only there', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'Parent');
    const item = await makeItem(team.as.admin, (await makeChecklist(team.as.admin, card.id)).id, 'Catch the lemur');
    const convert = await team.as.admin.post(`/api/items/${item.id}/convert`);
    expectStatus(convert, 201);
    expect(idsOf(await search(team.as.admin, team.board.id, 'lemur'))).toEqual([convert.json().id]);

    const other = await makeBoard(t.db, team.admin.id);
    const otherList = await makeList(team.as.admin, other.id, 'L');
    expectStatus(await team.as.admin.post(`/api/cards/${convert.json().id}/move`, { listId: otherList.id }), 200);
    expect(await search(team.as.admin, team.board.id, 'lemur')).toEqual([]);
    expect(idsOf(await search(team.as.admin, other.id, 'lemur'))).toEqual([convert.json().id]);
  });

  it('does not find deleted cards', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'Ocelot');
    expectNoContent(await team.as.admin.del(`/api/cards/${card.id}`));
    expect(await search(team.as.admin, team.board.id, 'ocelot', '&archived=true')).toEqual([]);
    expect((await fetchBoard(team.as.admin, team.board.id)).lists[0].cards).toEqual([]);
  });
});

describe('search ranking holds with repeated comment matches', () => {
  it('a single title match still ranks above a card that mentions the word many times in comments only', async () => {
    const team = await makeTeam(t);
    const chatty = await makeCard(team.as.admin, team.list.id, 'Unrelated');
    for (let i = 0; i < 3; i++) await makeComment(team.as.admin, chatty.id, 'the armadillo, the armadillo again');
    const titled = await makeCard(team.as.admin, team.list.id, 'Armadillo');
    expect(idsOf(await search(team.as.admin, team.board.id, 'armadillo'))).toEqual([titled.id, chatty.id]);
  });
});
