import { describe, expect, it } from 'vitest';
import { loginCookie, makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { answerWorkspace, ask, pdfSaying } from './answer-fixtures.js';

const t = useTestApp();

async function asOwner() {
  const w = await answerWorkspace(t);
  const { cookie } = await loginCookie(t.app, w.owner.email, w.owner.password);
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, payload?: object, as = cookie) =>
    t.app.inject({ method, url: `/agent/workspaces/${w.workspaceId}${path}`, headers: { cookie: as }, ...(payload ? { payload } : {}) });
  return { ...w, cookie, call };
}

describe('the support console backend (/agent, session)', () => {
  it('lists and creates workspaces with the caller\'s role; keys are refused', async () => {
    const user = await makeUser(t.db);
    const { cookie } = await loginCookie(t.app, user.email, user.password);
    const created = await t.app.inject({ method: 'POST', url: '/agent/workspaces', headers: { cookie }, payload: { name: 'Mine' } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Mine', role: 'owner', conversationLimit: null });
    const list = await t.app.inject({ method: 'GET', url: '/agent/workspaces', headers: { cookie } });
    expect(list.json().workspaces.map((w: { id: number }) => w.id)).toEqual([created.json().id]);
    const { token } = await makeKey(t.db, user.id);
    expect((await t.app.inject({ method: 'GET', url: '/agent/workspaces', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
  });

  it('manages articles: put (201 then 200), get, list with search, import dry run and for real, delete', async () => {
    const w = await asOwner();
    const put = await w.call('PUT', '/articles/new-one', { title: 'Brand new', body: 'A fresh article about lighthouses.' });
    expect(put.statusCode).toBe(201);
    expect((await w.call('PUT', '/articles/new-one', { title: 'Brand new', body: 'Lighthouses, revised.' })).statusCode).toBe(200);
    expect((await w.call('GET', '/articles/new-one')).json()).toMatchObject({ externalId: 'new-one', body: 'Lighthouses, revised.', url: null });
    const found = (await w.call('GET', '/articles?q=lighthouse')).json();
    expect(found.articles.map((a: { externalId: string }) => a.externalId)).toEqual(['new-one']);
    const page = (await w.call('GET', '/articles?limit=3')).json();
    expect(page.articles).toHaveLength(3);
    expect((await w.call('GET', `/articles?limit=3&cursor=${page.nextCursor}`)).json().articles[0].externalId > page.nextCursor).toBe(true);
    const articles = [{ externalId: 'new-one', title: 'Again', body: 'Again.' }, { externalId: 'other', title: 'Other', body: 'Other.' }];
    expect((await w.call('POST', '/articles/import', { articles, dryRun: true })).json()).toEqual({ imported: 2, created: 1, updated: 1, updatedIds: ['new-one'], dryRun: true });
    expect((await w.call('GET', '/articles/other')).statusCode).toBe(404);
    expect((await w.call('POST', '/articles/import', { articles })).json()).toEqual({ imported: 2, created: 1, updated: 1, dryRun: false });
    expect((await w.call('DELETE', '/articles/other')).statusCode).toBe(204);
    expect((await w.call('DELETE', '/articles/other')).statusCode).toBe(404);
    expect((await w.call('PUT', '/articles/x', { title: '', body: 'b' })).json().error).toMatch(/^title: /);
  });

  it('POST /articles creates an article, generating its externalId when none (or an empty one) is given; a taken one is 409', async () => {
    const w = await asOwner();
    const generated = await w.call('POST', '/articles', { title: 'Written by hand', body: 'Lighthouses need no id from you.' });
    expect(generated.statusCode).toBe(201);
    expect(generated.json()).toMatchObject({ title: 'Written by hand', url: null, externalId: expect.stringMatching(/^art_[0-9A-Za-z]{16}$/) });
    expect((await w.call('GET', `/articles/${generated.json().externalId}`)).json().body).toBe('Lighthouses need no id from you.');
    const empty = await w.call('POST', '/articles', { externalId: '  ', title: 'Another', body: 'Another one.' });
    expect(empty.statusCode).toBe(201);
    expect(empty.json().externalId).toMatch(/^art_/);
    expect(empty.json().externalId).not.toBe(generated.json().externalId);
    expect((await w.call('POST', '/articles', { externalId: 'given-id', title: 'Given', body: 'Given.' })).json().externalId).toBe('given-id');
    const taken = await w.call('POST', '/articles', { externalId: 'given-id', title: 'Again', body: 'Again.' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatch(/given-id/);
    expect((await w.call('GET', '/articles/given-id')).json().title).toBe('Given');
    expect((await w.call('POST', '/articles', { title: 'No body' })).statusCode).toBe(400);
    // The answer agent uses it at once.
    const answer = await ask(t, w.token, { message: 'do lighthouses need an id from me?' });
    expect(answer.json().sources.map((x: { externalId: string }) => x.externalId)).toContain(generated.json().externalId);
  });

  it('POST /articles/read-files reads PDFs for the import with the attachment readers: text, or why none; owners and admins only', async () => {
    const w = await asOwner();
    const good = await pdfSaying('Warranty: two years on every device, parts and labour.');
    const res = await w.call('POST', '/articles/read-files', { files: [{ filename: 'warranty.pdf', contentBase64: good }, { filename: 'broken.pdf', contentBase64: Buffer.from('not a pdf at all').toString('base64') }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().texts).toEqual([
      { filename: 'warranty.pdf', title: null, text: 'Warranty: two years on every device, parts and labour.', problem: null },
      { filename: 'broken.pdf', title: null, text: null, problem: expect.stringContaining('No text could be read') },
    ]);
    expect((await w.call('POST', '/articles/read-files', { files: [] })).statusCode).toBe(400);
    const member = await makeUser(t.db);
    await t.db.prisma.workspaceMember.create({ data: { workspaceId: w.workspaceId, userId: member.id, role: 'member' } });
    const { cookie } = await loginCookie(t.app, member.email, member.password);
    expect((await w.call('POST', '/articles/read-files', { files: [{ filename: 'warranty.pdf', contentBase64: good }] }, cookie)).statusCode).toBe(403);
  });

  it('creates and revokes answer keys; a revoked key stops at once', async () => {
    const w = await asOwner();
    const created = await w.call('POST', '/answer-keys', { name: 'widget' });
    expect(created.statusCode).toBe(201);
    const { key, token } = created.json();
    expect(token).toMatch(/^ans_/);
    expect(key).toMatchObject({ name: 'widget', prefix: token.slice(0, 10), revokedAt: null });
    expect((await ask(t, token, { message: 'how do I reset my password' })).statusCode).toBe(200);
    expect((await w.call('DELETE', `/answer-keys/${key.id}`)).statusCode).toBe(204);
    expect((await ask(t, token, { message: 'how do I reset my password' })).statusCode).toBe(401);
    const keys = (await w.call('GET', '/answer-keys')).json().keys;
    expect(keys.find((k: { id: number }) => k.id === key.id).revokedAt).not.toBeNull();
    expect(JSON.stringify(keys)).not.toContain(token);
  });

  it('creates and edits agents; making one the default takes the flag from the other', async () => {
    const w = await asOwner();
    const created = await w.call('POST', '/agents', { name: 'Night shift', referralText: 'Call us at 9.' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Night shift', default: false, published: true, attachmentFallback: 'answer', referralText: 'Call us at 9.' });
    const patched = await w.call('PATCH', `/agents/${created.json().id}`, { default: true, attachmentFallback: 'needs_human' });
    expect(patched.json()).toMatchObject({ default: true, attachmentFallback: 'needs_human' });
    const agents = (await w.call('GET', '/agents')).json().agents;
    expect(agents.filter((a: { default: boolean }) => a.default)).toHaveLength(1);
    expect((await w.call('PATCH', '/agents/agt_nope', { name: 'x' })).statusCode).toBe(404);
  });

  it('lets members read and refuses them changes (403); strangers get 404', async () => {
    const w = await asOwner();
    const member = await makeUser(t.db);
    await t.db.prisma.workspaceMember.create({ data: { workspaceId: w.workspaceId, userId: member.id, role: 'member' } });
    const { cookie: memberCookie } = await loginCookie(t.app, member.email, member.password);
    expect((await w.call('GET', '/articles', undefined, memberCookie)).statusCode).toBe(200);
    expect((await w.call('GET', '/metrics', undefined, memberCookie)).statusCode).toBe(200);
    expect((await w.call('PUT', '/articles/x', { title: 'x', body: 'y' }, memberCookie)).statusCode).toBe(403);
    expect((await w.call('POST', '/agents', { name: 'x' }, memberCookie)).statusCode).toBe(403);
    expect((await w.call('POST', '/answer-keys', { name: 'x' }, memberCookie)).statusCode).toBe(403);
    const stranger = await makeUser(t.db);
    const { cookie: strangerCookie } = await loginCookie(t.app, stranger.email, stranger.password);
    expect((await w.call('GET', '/articles', undefined, strangerCookie)).statusCode).toBe(404);
  });

  it('lists conversations with filters, shows one with its turns, and computes metrics', async () => {
    const w = await asOwner();
    await ask(t, w.token, { message: 'how do I reset my password?', conversationRef: 'a', channel: 'email' });
    await ask(t, w.token, { message: 'and how do I change it?', conversationRef: 'a', channel: 'email' });
    await ask(t, w.token, { message: 'how do I reset my password again?', conversationRef: 'a', channel: 'chat' });
    await ask(t, w.token, { message: 'how do I reset my password once more?', conversationRef: 'a' });
    await ask(t, w.token, { message: 'what is the capital of peru?', channel: 'chat' });
    const all = (await w.call('GET', '/conversations')).json();
    expect(all.conversations).toHaveLength(2);
    const needing = (await w.call('GET', '/conversations?needsHuman=true')).json().conversations;
    expect(needing).toHaveLength(1);
    expect(needing[0].lastTurn.question).toBe('what is the capital of peru?');
    expect((await w.call('GET', '/conversations?channel=email')).json().conversations).toHaveLength(1);
    const a = all.conversations.find((c: { ref: string }) => c.ref === 'a');
    // Every channel its turns came in on, first seen first (its last turn named none).
    expect(a.channels).toEqual(['email', 'chat']);
    expect(a.lastTurn.channel).toBeNull();
    const detail = (await w.call('GET', `/conversations/${a.id}`)).json();
    expect(detail.channels).toEqual(['email', 'chat']);
    expect(detail.turns.map((x: { question: string }) => x.question)).toEqual(['how do I reset my password?', 'and how do I change it?', 'how do I reset my password again?', 'how do I reset my password once more?']);
    expect(detail.turns[0].sources[0].externalId).toBe('pw-reset');
    expect((await w.call('GET', '/conversations/cnv_nope')).statusCode).toBe(404);

    const metrics = (await w.call('GET', '/metrics')).json();
    expect(metrics.total).toMatchObject({ answers: 5, needsHuman: 1, needsHumanShare: 0.2 });
    expect(metrics.total.confidence.low).toBeGreaterThanOrEqual(1);
    expect(metrics.total.latencyMs.p50).toBeGreaterThanOrEqual(0);
    expect(metrics.days).toHaveLength(1);
    expect(metrics.days[0].answers).toBe(5);
    expect((await w.call('GET', '/metrics?from=2030-01-01T00:00:00Z&to=2020-01-01T00:00:00Z')).statusCode).toBe(400);
  });

  it('groups unanswered questions by similarity in the knowledge gaps', async () => {
    const w = await asOwner();
    for (const message of ['how do I connect my smart fridge', 'connect smart fridge to the app', 'my smart fridge will not connect', 'what are your office opening hours']) {
      expect((await ask(t, w.token, { message })).json().needs_human).toBe(true);
    }
    const gaps = (await w.call('GET', '/knowledge-gaps')).json();
    expect(gaps.unanswered).toBe(4);
    expect(gaps.groups.map((g: { count: number }) => g.count)).toEqual([3, 1]);
    // Whole words, not stems.
    expect(gaps.groups[0].terms).toEqual(expect.arrayContaining(['fridge', 'smart']));
    expect(gaps.groups[0].examples).toHaveLength(3);
  });

  it('groups knowledge gaps by what the questions are about, not by the boilerplate they share', async () => {
    const w = await asOwner();
    const subjects = ['fridge pairing', 'opening hours'];
    for (let i = 0; i < 10; i++) {
      const message = `Ticket ${i} from the shop form: ${subjects[i % 2]}? See attached.`;
      expect((await ask(t, w.token, { message })).json().needs_human, message).toBe(true);
    }
    const gaps = (await w.call('GET', '/knowledge-gaps')).json();
    expect(gaps.groups.map((g: { count: number }) => g.count)).toEqual([5, 5]);
    const terms = gaps.groups.map((g: { terms: string[] }) => g.terms.join(' '));
    expect(terms).toEqual(expect.arrayContaining([expect.stringContaining('fridge'), expect.stringContaining('opening')]));
    for (const t of terms) expect(t).not.toMatch(/ticket|shop|form|attached/);
  });
});
