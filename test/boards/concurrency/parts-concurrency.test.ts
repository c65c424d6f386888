import { beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../../factories.js';
import { useTestApp } from '../../helper.js';

/**
 * Card parts (labels, assignees, field values, checklist items, comments) changed by many
 * parallel requests over a listening server, racing the removal of what they refer to. Whatever
 * ran at the same time: never a 5xx, positions stay 0..n-1, no card keeps a part that is gone or
 * no longer valid, and every change bumps the card's version exactly once. On PostgreSQL
 * (TEST_DATABASE_URL) the requests truly overlap; on PGlite they are serialised.
 */
const t = useTestApp({ RATE_LIMIT_MAX: '100000000', LOG_LEVEL: 'warn' });
let base: string;
beforeAll(async () => {
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

interface Answer {
  status: number;
  body: any;
}

/** A user with a write key and a board of their own (admin), with `others` as members. */
async function setup(others: number = 0) {
  const admin = await makeUser(t.db);
  const { auth } = await makeKey(t.db, admin.id);
  const members = await Promise.all(Array.from({ length: others }, () => makeUser(t.db)));
  const board = await makeBoard(t.db, admin.id, members.map((m) => ({ userId: m.id, role: 'member' as const })));
  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(`${base}/api${path}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  /** Setup steps must succeed; the message carries the answer when one does not. */
  const ok = async (method: string, path: string, body?: unknown) => {
    const a = await call(method, path, body);
    expect(a.status, `${method} ${path}: ${a.status} ${JSON.stringify(a.body)}`).toBeLessThan(300);
    return a.body;
  };
  const makeList = (name = 'l') => ok('POST', `/boards/${board.id}/lists`, { name });
  const makeCards = async (listId: number, n: number) => {
    const cards = [];
    for (let i = 0; i < n; i++) cards.push(await ok('POST', `/lists/${listId}/cards`, { title: `card ${i}` }));
    return cards;
  };
  const card = (id: number) => ok('GET', `/cards/${id}`);
  const listCards = async (listId: number) => {
    const full = await ok('GET', `/boards/${board.id}`);
    return full.lists.find((l: any) => l.id === listId).cards as any[];
  };
  return { admin, members, board, call, ok, makeList, makeCards, card, listCards };
}

/** Every status is one of `allowed`; the message shows how many of each came back. */
function expectStatuses(answers: Answer[], allowed: number[], what: string) {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  const bad = answers.filter((a) => !allowed.includes(a.status));
  // Soft, so that one run reports every wrong answer and every broken invariant, not just the first.
  expect.soft(bad.map((a) => `${a.status} ${JSON.stringify(a.body)}`), `${what}: statuses ${JSON.stringify(counts)}`).toEqual([]);
  return counts;
}

const expectCompact = (positions: number[], what: string) =>
  expect([...positions].sort((a, b) => a - b), what).toEqual(positions.map((_, i) => i));

const NEVER_5XX = [200, 201, 204, 400, 404, 409];

describe('card parts under concurrent requests', () => {
  it('checklist item reorders, creations, deletions and conversions keep item and card positions 0..n-1', async () => {
    const s = await setup();
    const list = await s.makeList();
    const cards = await s.makeCards(list.id, 5);
    const source = cards[2];
    const checklist = await s.ok('POST', `/cards/${source.id}/checklists`, { name: 'todo' });
    const items: any[] = [];
    for (let i = 0; i < 20; i++) items.push(await s.ok('POST', `/checklists/${checklist.id}/items`, { name: `item ${i}` }));
    const rnd = seededRandom(1001);
    const pick = () => items[Math.floor(rnd() * items.length)];

    const kinds: string[] = [];
    const requests = Array.from({ length: 60 }, (_, i) => {
      const r = rnd();
      const item = pick();
      if (r < 0.35) {
        kinds.push('reorder');
        return s.call('PATCH', `/items/${item.id}`, { position: Math.floor(rnd() * 20), checked: rnd() < 0.5 });
      }
      if (r < 0.55) {
        kinds.push('create');
        return s.call('POST', `/checklists/${checklist.id}/items`, { name: `new ${i}` });
      }
      if (r < 0.75) {
        kinds.push('delete');
        return s.call('DELETE', `/items/${item.id}`);
      }
      kinds.push(`convert ${item.id}`);
      return s.call('POST', `/items/${item.id}/convert`);
    });
    const answers = await Promise.all(requests);
    expectStatuses(answers, NEVER_5XX, 'checklist traffic');

    const after = await s.card(source.id);
    const finalItems = after.checklists[0].items;
    expectCompact(finalItems.map((i: any) => i.position), 'item positions');
    const listCards = await s.listCards(list.id);
    expectCompact(listCards.map((c: any) => c.position), 'card positions');

    // Each converted item became exactly one card, in the list, titled after the item; the item is gone.
    const converts = answers.map((a, i) => ({ a, kind: kinds[i]! })).filter((x) => x.kind.startsWith('convert'));
    const won = converts.filter((x) => x.a.status === 201);
    const wonItems = won.map((x) => Number(x.kind.split(' ')[1]));
    expect(new Set(wonItems).size, 'one card per converted item').toBe(wonItems.length);
    for (const x of converts.filter((c) => c.a.status !== 201)) expect([404, 409], JSON.stringify(x.a.body)).toContain(x.a.status);
    const newIds = won.map((x) => x.a.body.id);
    expect(listCards.map((c: any) => c.id).sort()).toEqual([...cards.map((c: any) => c.id), ...newIds].sort());
    for (const x of won) expect(x.a.body.title).toBe(items.find((i) => i.id === Number(x.kind.split(' ')[1])).name);
    const remaining = new Set(finalItems.map((i: any) => i.id));
    for (const id of wonItems) expect(remaining.has(id), `item ${id} converted yet still there`).toBe(false);
    const created = answers.filter((a, i) => kinds[i] === 'create' && a.status === 201).length;
    const deleted = answers.filter((a, i) => kinds[i] === 'delete' && a.status === 204).length;
    expect(finalItems.length).toBe(items.length + created - deleted - won.length);
    expect(after.checklistItems.total).toBe(finalItems.length);
  });

  it('label PUTs racing the deletion of that label: no card keeps it, never a 5xx', async () => {
    const s = await setup();
    const list = await s.makeList();
    const cards = await s.makeCards(list.id, 12);
    const all: Answer[] = [];
    let deletions = 0;
    for (let round = 0; round < 5; round++) {
      const label = await s.ok('POST', `/boards/${s.board.id}/labels`, { name: `doomed ${round}`, color: 'red' });
      const puts = () => Promise.all(cards.map((c: any) => s.call('PUT', `/cards/${c.id}/labels/${label.id}`)));
      const [first, removal, second] = await Promise.all([puts(), s.call('DELETE', `/labels/${label.id}`), puts()]);
      const answers = [...first, ...second];
      all.push(...answers);
      expectStatuses(answers, [200, 400, 409], `round ${round}: label puts`);
      // The deletion may lose a race it cannot resolve (409); then the label stays and there is nothing to check.
      expectStatuses([removal], [204, 409], `round ${round}: the deletion`);
      if (removal.status !== 204) continue;
      deletions++;
      for (const a of answers) if (a.status === 200) expect(a.body.labelIds).toContain(label.id);
      const after = await Promise.all(cards.map((c: any) => s.card(c.id)));
      for (const c of after) expect(c.labelIds, `card ${c.id} round ${round}`).not.toContain(label.id);
      expect(await t.db.prisma.cardLabel.count({ where: { labelId: label.id } })).toBe(0);
    }
    expect(all.some((a) => a.status === 200)).toBe(true);
    expect(deletions).toBeGreaterThan(0);
  });

  it('list values set to an option racing the removal of that option: no card keeps it, never a 5xx', async () => {
    const s = await setup();
    const list = await s.makeList();
    const cards = await s.makeCards(list.id, 12);
    for (let round = 0; round < 4; round++) {
      const field = await s.ok('POST', `/boards/${s.board.id}/custom-fields`, { name: `f${round}`, type: 'list', options: ['a', 'b'] });
      const sets = () => Promise.all(cards.map((c: any) => s.call('PUT', `/cards/${c.id}/fields/${field.id}`, { value: 'a' })));
      // Half the cards hold 'a' already: the option's removal must clear those while others set it again.
      for (const c of cards.slice(0, 6)) await s.ok('PUT', `/cards/${c.id}/fields/${field.id}`, { value: 'a' });
      const [first, patch, second] = await Promise.all([sets(), s.call('PATCH', `/custom-fields/${field.id}`, { options: ['b'] }), sets()]);
      const answers = [...first, ...second];
      expectStatuses(answers, [200, 400, 409], `round ${round}: value sets`);
      expectStatuses([patch], [200, 409], `round ${round}: the option removal`);
      if (patch.status !== 200) continue;
      expect(patch.body.options).toEqual(['b']);
      const after = await Promise.all(cards.map((c: any) => s.card(c.id)));
      const stale = after.filter((c) => c.fieldValues[field.id] === 'a').map((c) => c.id);
      expect(stale, `round ${round}: cards holding the removed option`).toEqual([]);
      const rows = await t.db.prisma.cardFieldValue.findMany({ where: { fieldId: field.id } });
      expect(rows.filter((r) => r.value === 'a')).toEqual([]);
    }
  });

  it('assignments racing the removal of that member from the board: the removed user is assigned to no card', async () => {
    const rounds = 6;
    const s = await setup(rounds);
    const list = await s.makeList();
    const cards = await s.makeCards(list.id, 12);
    const leftovers: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const victim = s.members[round]!;
      const assigns = () => Promise.all(cards.map((c: any) => s.call('PUT', `/cards/${c.id}/members/${victim.id}`)));
      const [first, removal, second] = await Promise.all([assigns(), s.call('DELETE', `/boards/${s.board.id}/members/${victim.id}`), assigns()]);
      const answers = [...first, ...second];
      const counts = expectStatuses(answers, [200, 400, 404, 409], `round ${round}: assignments`);
      expectStatuses([removal], [204, 409], `round ${round}: the removal`);
      if (removal.status !== 204) continue;
      const after = await Promise.all(cards.map((c: any) => s.card(c.id)));
      const still = after.filter((c) => c.memberIds.includes(victim.id)).map((c) => c.id);
      if (still.length) leftovers.push(`round ${round}: user ${victim.id} (removed) still on cards ${still} after ${JSON.stringify(counts)}`);
      const rows = await t.db.prisma.cardAssignee.count({ where: { userId: victim.id, card: { boardId: s.board.id } } });
      if (rows !== still.length) leftovers.push(`round ${round}: ${rows} assignee rows, ${still.length} seen through the API`);
    }
    expect(leftovers).toEqual([]);
  });

  it('comments, label puts and moves of one card at once: each change bumps the version exactly once', async () => {
    const s = await setup();
    const a = await s.makeList('A');
    const b = await s.makeList('B');
    const [, card] = await s.makeCards(a.id, 4);
    await s.makeCards(b.id, 3);
    const labels: { id: number }[] = [];
    for (let i = 0; i < 5; i++) labels.push(await s.ok('POST', `/boards/${s.board.id}/labels`, { name: `l${i}`, color: null }));
    const initial = (await s.card(card.id)).version;
    const rnd = seededRandom(55);

    const comments = Array.from({ length: 10 }, (_, i) => s.call('POST', `/cards/${card.id}/comments`, { text: `comment ${i}` }));
    // Each label twice: the repeat is idempotent and must not bump the version again.
    const labelPuts = [...labels, ...labels].map((l) => s.call('PUT', `/cards/${card.id}/labels/${l.id}`));
    const moves = Array.from({ length: 10 }, (_, i) =>
      s.call('POST', `/cards/${card.id}/move`, rnd() < 0.5 ? { listId: i % 2 ? a.id : b.id, position: 0 } : { listId: i % 2 ? a.id : b.id }),
    );
    const [commentAnswers, labelAnswers, moveAnswers] = await Promise.all([Promise.all(comments), Promise.all(labelPuts), Promise.all(moves)]);
    expectStatuses(commentAnswers, [201, 409], 'comments');
    expectStatuses(labelAnswers, [200, 409], 'label puts');
    expectStatuses(moveAnswers, [200, 409], 'moves');

    const final = await s.card(card.id);
    const activity = await s.ok('GET', `/boards/${s.board.id}/activity?limit=200`);
    expect(activity.nextBefore, 'the whole log fits one page').toBeNull();
    const changes = (activity.activities as any[]).filter(
      (x) => x.data.cardId === card.id && ['comment.created', 'card.label_added', 'card.moved'].includes(x.type),
    );
    const count = (type: string) => changes.filter((x) => x.type === type).length;
    const commentsMade = commentAnswers.filter((x) => x.status === 201).length;
    const labelled = [...new Set(labelAnswers.flatMap((x, i) => (x.status === 200 ? [labels[i % labels.length]!.id] : [])))];
    const movesOk = moveAnswers.filter((x) => x.status === 200).length;
    expect(count('comment.created')).toBe(commentsMade);
    expect(count('card.label_added'), 'one label_added per distinct label, the repeat adds nothing').toBe(labelled.length);
    expect(labelled.length).toBeGreaterThan(0);
    expect(count('card.moved')).toBeLessThanOrEqual(movesOk);
    expect(final.commentCount).toBe(commentsMade);
    expect(final.labelIds).toEqual(labelled.sort((x, y) => x - y));

    // One bump per change, no more, no fewer: the versions the activities saw are initial+1..final, each once.
    expect(final.version, `version: initial ${initial}, ${changes.length} changes`).toBe(initial + changes.length);
    const seen = changes.map((x) => x.data.card.version).sort((x: number, y: number) => x - y);
    expect(seen).toEqual(changes.map((_, i) => initial + 1 + i));
    // Every card a change answered with is a version the card really went through.
    for (const x of [...labelAnswers, ...moveAnswers]) if (x.status === 200) expect(x.body.version).toBeLessThanOrEqual(final.version);

    for (const list of [a, b]) expectCompact((await s.listCards(list.id)).map((c: any) => c.position), `list ${list.name}`);
    expect((await s.listCards(final.listId)).some((c: any) => c.id === card.id)).toBe(true);
  });
});
