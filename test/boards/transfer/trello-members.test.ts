import { describe, expect, it } from 'vitest';
import { BOARD_TEST_ENV, client, expectError, expectStatus } from '../../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../../factories.js';
import { useTestApp } from '../../helper.js';
import { FIXTURE_NAMES, readFixture } from './trello-fixtures.js';

/**
 * Issue #46 item 9: a Trello import keeps who said what. The real exports' members are matched to
 * accounts made first (by e-mail, username or full name, among people the importer shares a board
 * with); the importer can change a match or leave someone out; comments keep their author and date.
 */
const t = useTestApp(BOARD_TEST_ENV);

let run = 0;

/** An importer, and an account for each of the export's members, sharing a board with the importer: by address (set in the export), by username, by full name, in turn. */
async function importerWithAccounts(json: any) {
  const domain = `m${++run}-${Date.now()}.example`;
  const importer = await makeUser(t.db, { email: `importer@${domain}` });
  const key = await makeKey(t.db, importer.id);
  const accounts = new Map<string, { id: number; name: string; by: 'email' | 'username' | 'name' }>();
  for (const [i, m] of (json.members as any[]).entries()) {
    const by = (['email', 'username', 'name'] as const)[i % 3]!;
    if (by === 'email') m.email = `${m.username}.trello@${domain}`;
    const user = await makeUser(t.db, {
      email: by === 'email' ? m.email : by === 'username' ? `${m.username}@${domain}` : `someone-${i}@${domain}`,
      name: by === 'name' ? m.fullName : `${m.fullName} here`,
    });
    accounts.set(m.id, { id: user.id, name: user.name, by });
  }
  await makeBoard(t.db, importer.id, [...accounts.values()].map((a) => ({ userId: a.id, role: 'member' as const })));
  return { importer, key, api: client(t.app, key.auth), accounts };
}

/** The import as a person's browser sends it: multipart, the file and (optionally) the chosen matches. */
function multipart(text: string, members?: unknown) {
  const boundary = '----members-test';
  const part = (name: string, body: string, file?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"\r\nContent-Type: application/json` : ''}\r\n\r\n${body}\r\n`;
  const payload = `${part('file', text, 'board.json')}${members === undefined ? '' : part('members', typeof members === 'string' ? members : JSON.stringify(members))}--${boundary}--\r\n`;
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function readBack(boardId: number) {
  return t.db.prisma.card.findMany({
    where: { boardId },
    include: { list: true, assignees: { orderBy: { userId: 'asc' } }, comments: { orderBy: { id: 'asc' } }, attachments: { orderBy: { id: 'asc' } } },
    orderBy: { id: 'asc' },
  });
}

describe('POST /api/boards/import: the real Trello exports with their members matched', () => {
  for (const name of FIXTURE_NAMES) {
    it(`${name}: the preview proposes each member's account; every comment's author and every assignee is that person`, async () => {
      const { json } = readFixture(name);
      const { api, importer, accounts } = await importerWithAccounts(json);

      const preview = await api.post('/api/boards/import?dryRun=true&matchMembers=true', json);
      expectStatus(preview, 200);
      const proposed = preview.json().members;
      expect(proposed.map((m: any) => [m.key, m.match])).toEqual(
        json.members.map((m: any) => [m.id, { userId: accounts.get(m.id)!.id, name: accounts.get(m.id)!.name, by: accounts.get(m.id)!.by }]),
      );
      // The candidates: the importer and the people they share a board with, no one else.
      expect(preview.json().candidates.map((c: any) => c.userId).sort()).toEqual([importer.id, ...[...accounts.values()].map((a) => a.id)].sort());
      expect(preview.json().summary.matchedMembers).toBe(json.members.length);

      const res = await api.post('/api/boards/import?matchMembers=true', json);
      expectStatus(res, 201);
      const boardId = res.json().board.id;
      const members = await t.db.prisma.boardMember.findMany({ where: { boardId }, orderBy: { userId: 'asc' } });
      expect(members.map((m) => m.userId)).toEqual([importer.id, ...[...accounts.values()].map((a) => a.id)].sort((a, b) => a - b));

      const cards = await readBack(boardId);
      // A card is known by its title and the moment its Trello id holds (two gocd titles appear twice).
      const byKey = new Map(cards.map((c) => [`${c.title}@${c.createdAt.toISOString()}`, c]));
      expect(byKey.size).toBe(cards.length);
      const said = json.actions.filter((a: any) => a.type === 'commentCard');
      let checkedComments = 0;
      let checkedAssignees = 0;
      for (const card of json.cards) {
        const ours = byKey.get(`${card.name.trim()}@${new Date(parseInt(card.id.slice(0, 8), 16) * 1000).toISOString()}`)!;
        expect(ours.assignees.map((a) => a.userId)).toEqual(card.idMembers.map((id: string) => accounts.get(id)!.id).sort((a: number, b: number) => a - b));
        checkedAssignees += card.idMembers.length;
        const comments = said.filter((a: any) => a.data.card.id === card.id).sort((a: any, b: any) => a.date.localeCompare(b.date));
        expect(ours.comments.map((c) => [c.authorId, c.authorName, c.text, c.createdAt.toISOString()])).toEqual(
          comments.map((a: any) => [accounts.get(a.idMemberCreator)!.id, accounts.get(a.idMemberCreator)!.name, a.data.text.trim(), new Date(a.date).toISOString()]),
        );
        checkedComments += comments.length;
      }
      expect(checkedComments).toBe(said.length);
      // Each imported comment says so through the API (the web app marks it "imported"): the importer chose its author.
      const commented = cards.find((c) => c.comments.length > 0);
      if (commented) {
        const full = (await api.get(`/api/cards/${commented.id}`)).json();
        expect(full.comments.length).toBe(commented.comments.length);
        expect(full.comments.every((c: any) => typeof c.importedAt === 'string' && Date.parse(c.importedAt) >= Date.parse(c.createdAt))).toBe(true);
        const own = await api.post(`/api/cards/${commented.id}/comments`, { text: 'written here' });
        expectStatus(own, 201);
        expect(own.json().importedAt).toBeNull();
        expect((await api.get(`/api/cards/${commented.id}/comments`)).json().comments.filter((c: any) => c.importedAt === null).map((c: any) => c.text)).toEqual(['written here']);
      }
      expect(checkedAssignees).toBe(json.cards.reduce((n: number, c: any) => n + c.idMembers.length, 0));
      // Nobody is "named in the text" any more: they are all here.
      expect(cards.some((c) => c.description.includes('Assigned before the import'))).toBe(false);
    });
  }

  it('takes the importer\'s choices over the proposal: another candidate, or leave out; refuses keys and users it may not (400)', async () => {
    const { json } = readFixture('gocd-test-drive');
    const { api, key, importer, accounts } = await importerWithAccounts(json);
    const stranger = await makeUser(t.db, { name: 'Not a colleague' });
    const [first, second] = json.members as any[];
    const send = (members: unknown, query = 'matchMembers=true') => {
      const body = multipart(JSON.stringify(json), members);
      return t.app.inject({ method: 'POST', url: `/api/boards/import?${query}`, headers: { ...key.auth, ...body.headers }, payload: body.payload });
    };

    expectError(await send({ nobody: null }), 400, /^members\.nobody: not a member of the file/);
    expectError(await send({ [first.id]: stranger.id }), 400, new RegExp(`^members\\.${first.id}: user ${stranger.id} is not someone you may pick`));
    expectError(await send({ [first.id]: 999_999_999 }), 400, new RegExp(`^members\\.${first.id}: user 999999999 is not someone you may pick`));
    expectError(await send({ [first.id]: 'x' }), 400, /^members\.[0-9a-f]+: must be a user id or null/);
    expectError(await send('[1,'), 400, /^members: not JSON/);

    // The first member is the importer here; the second is left out.
    const preview = await send({ [first.id]: importer.id, [second.id]: null }, 'dryRun=true&matchMembers=true');
    expectStatus(preview, 200);
    const shown = new Map(preview.json().members.map((m: any) => [m.key, m.match]));
    expect(shown.get(first.id)).toEqual({ userId: importer.id, name: importer.name, by: 'chosen' });
    expect(shown.get(second.id)).toBeNull();

    const res = await send({ [first.id]: importer.id, [second.id]: null });
    expectStatus(res, 201);
    const cards = await readBack(res.json().board.id);
    const comments = cards.flatMap((c) => c.comments);
    const byFirst = json.actions.filter((a: any) => a.type === 'commentCard' && a.idMemberCreator === first.id).length;
    const bySecond = json.actions.filter((a: any) => a.type === 'commentCard' && a.idMemberCreator === second.id).length;
    expect(byFirst + bySecond).toBeGreaterThan(0);
    expect(comments.filter((c) => c.authorId === importer.id).length).toBe(byFirst);
    // Left out: their comments are theirs by name alone, marked as Trello's in the header (not in the text).
    const secondsComments = comments.filter((c) => c.authorName === `${second.fullName} (from Trello)`);
    expect(secondsComments.length).toBe(bySecond);
    expect(secondsComments.every((c) => c.authorId === null && !c.text.includes('from Trello'))).toBe(true);
    expect(comments.some((c) => c.authorId === accounts.get(second.id)!.id)).toBe(false);
    const members = await t.db.prisma.boardMember.findMany({ where: { boardId: res.json().board.id } });
    expect(members.some((m) => m.userId === accounts.get(second.id)!.id)).toBe(false);
    const assignedToSecond = json.cards.filter((c: any) => c.idMembers.includes(second.id)).length;
    expect(cards.filter((c) => c.description.includes(`${second.fullName} (@${second.username})`)).length).toBe(assignedToSecond);
  });

  it('matches by full name only when exactly one candidate has it', async () => {
    const { json } = readFixture('trello2md-productivity-workflow');
    const importer = await makeUser(t.db);
    const api = client(t.app, (await makeKey(t.db, importer.id)).auth);
    const a = await makeUser(t.db, { name: json.members[0].fullName });
    const b = await makeUser(t.db, { name: ` ${json.members[0].fullName.toUpperCase()} ` });
    const c = await makeUser(t.db, { name: json.members[1].fullName });
    await makeBoard(t.db, importer.id, [a, b, c].map((u) => ({ userId: u.id, role: 'member' as const })));
    const preview = (await api.post('/api/boards/import?dryRun=true&matchMembers=true', json)).json();
    expect(preview.members.map((m: any) => m.match?.userId ?? null)).toEqual([null, c.id]);
  });
});

describe('gocd-test-drive.json: its archived cards are in the archive, and come back into their own list', () => {
  it('lists every archived card and list; restoring (the list first when it is archived) puts each card back in its original list', async () => {
    const { json } = readFixture('gocd-test-drive');
    const importer = await makeUser(t.db);
    const api = client(t.app, (await makeKey(t.db, importer.id)).auth);
    const res = await api.post('/api/boards/import', json);
    expectStatus(res, 201);
    const boardId = res.json().board.id;
    const archived = (await api.get(`/api/boards/${boardId}/archived`)).json();
    const listNames = new Map(json.lists.map((l: any) => [l.id, l.name.trim()]));
    const closedCards = json.cards.filter((c: any) => c.closed);
    expect(archived.cards.length).toBe(closedCards.length);
    expect(archived.lists.map((l: any) => l.name).sort()).toEqual(json.lists.filter((l: any) => l.closed).map((l: any) => l.name.trim()).sort());
    const ourLists = (await t.db.prisma.list.findMany({ where: { boardId } }));
    const listName = new Map(ourLists.map((l) => [l.id, l.name]));
    const restoredLists = new Set<number>();
    // Each Trello card matched by its title and original list (two titles appear twice, in different lists or not archived).
    const remaining = [...archived.cards];
    for (const card of closedCards) {
      const i = remaining.findIndex((c: any) => c.title === card.name.trim() && listName.get(c.listId) === listNames.get(card.idList));
      expect(i, `${card.name} in the archive`).toBeGreaterThanOrEqual(0);
      const ours = remaining.splice(i, 1)[0];
      const list = ourLists.find((l) => l.id === ours.listId)!;
      if (list.archived && !restoredLists.has(list.id)) {
        expectStatus(await api.patch(`/api/lists/${list.id}`, { archived: false }), 200);
        restoredLists.add(list.id);
      }
      const back = await api.patch(`/api/cards/${ours.id}`, { archived: false });
      expectStatus(back, 200);
      expect(back.json()).toMatchObject({ listId: list.id, archived: false });
    }
    expect(remaining).toEqual([]);
    expect((await api.get(`/api/boards/${boardId}/archived`)).json().cards).toEqual([]);
  });
});

describe('Trello attachments as link attachments', () => {
  it('uploads and links are links on the card (an upload reported as kept on Trello); a link has no download, and is not a cover', async () => {
    const { json } = readFixture('trello2planka-simple-project-board');
    const importer = await makeUser(t.db);
    const api = client(t.app, (await makeKey(t.db, importer.id)).auth);
    const res = await api.post('/api/boards/import', json);
    expectStatus(res, 201);
    const uploads = json.cards.flatMap((c: any) => (c.attachments ?? []).filter((a: any) => a.isUpload));
    expect(res.json().unmapped).toContainEqual(expect.objectContaining({ what: 'uploaded files (not copied: kept as links to Trello, which may need a Trello sign-in)', count: uploads.length }));
    const source = json.cards.find((c: any) => c.name === 'attachments? comments too??');
    const card = (await readBack(res.json().board.id)).find((c) => c.title === source.name)!;
    const full = (await api.get(`/api/cards/${card.id}`)).json();
    expect(full.attachments).toEqual([expect.objectContaining({ filename: 'test.pdf', mimeType: 'application/pdf', size: 7340, url: source.attachments[0].url })]);
    expect(full.description).not.toContain(source.attachments[0].url);
    const id = full.attachments[0].id;
    expectError(await api.get(`/api/attachments/${id}/download`), 404, /a link, not a file/);
    expectError(await api.put(`/api/cards/${card.id}/cover`, { attachmentId: id }), 400, /a link, not a file here/);
    expectStatus(await api.del(`/api/attachments/${id}`), 204);
    expect(await t.db.prisma.deletedFile.count()).toBe(0);
  });

  it('reports gocd-test-drive.json\'s covers (pictures that stay on Trello), and keeps its GitHub links as links', async () => {
    const { json } = readFixture('gocd-test-drive');
    const importer = await makeUser(t.db);
    const api = client(t.app, (await makeKey(t.db, importer.id)).auth);
    const preview = (await api.post('/api/boards/import?dryRun=true', json)).json();
    const covers = json.cards.filter((c: any) => c.idAttachmentCover);
    expect(preview.unmapped).toContainEqual(expect.objectContaining({ what: 'covers (the picture stays on Trello as a link attachment; a cover must be a picture uploaded here)', count: covers.length }));
    const res = await api.post('/api/boards/import', json);
    const all = (await readBack(res.json().board.id)).flatMap((c) => c.attachments);
    expect(all.length).toBe(json.cards.reduce((n: number, c: any) => n + (c.attachments?.length ?? 0), 0));
    expect(all.filter((a) => a.url?.startsWith('https://github.com/')).length).toBeGreaterThan(0);
    expect(all.every((a) => a.storageKey === null && a.url !== null)).toBe(true);
  });
});
